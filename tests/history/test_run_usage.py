"""What the history keeps of a run's spending and of a run budget's unplayed cases (SQLite and PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.history import HistoryStore, list_runs, resolve_history, runs_document
from copilot_eval.history.ingest import ingest_folders
from copilot_eval.history.terminal import runs_table
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import numbered_set
from tests.runs.test_run_budget import _Executor, _Worker


async def test_a_runs_spending_and_its_not_run_cases_are_kept_and_shown(history_url, tmp_path: Path) -> None:
    out = tmp_path / "run"
    test_set = numbered_set(4)
    settings = RunSettings.of(graders=("exact",), concurrency=1, max_run_tokens=200, out=out)
    await run_eval_set(test_set, object(), settings, executor=_Executor(_Worker()))
    location = resolve_history(history_url)
    assert location is not None
    with HistoryStore.open(location) as store:
        ingest_folders(store, [out])
        stored = list_runs(store)
    [entry] = runs_document(stored, database="db")["runs"]
    assert entry["notRun"] == 2 and entry["passed"] == 2
    usage = entry["usage"]
    assert usage["agent"]["tokens"] == 220 and usage["agent"]["premiumRequestsUnknown"] == 2  # unknown, not 0
    assert usage["budgetReached"].startswith("run budget reached: --max-run-tokens 200")
    from rich.console import Console

    console = Console(width=250)
    with console.capture() as shown:
        console.print(runs_table(stored, title="runs"))
    assert "220 tok · 2 not run" in shown.get()
