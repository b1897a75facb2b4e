"""What the history says about one run's verdicts: graders people disagree with, and verdicts people changed.

A run graded by a grader whose agreement with people is below the kappa floor carries a flag in
its report and its terminal summary; a run that people reviewed says how many verdicts they
changed and its score with their verdicts. Reading never fails a command: a missing database
gives no notices.
"""

from __future__ import annotations

from pathlib import Path

from copilot_eval.evalsets import EvalRun
from copilot_eval.history.agreement import DEFAULT_MIN_KAPPA, flagged_line, grader_agreement
from copilot_eval.history.from_folder import record_from_folder
from copilot_eval.history.human_verdicts import rescore
from copilot_eval.history.lazy_tables import table
from copilot_eval.history.location import resolve_history
from copilot_eval.history.records import run_key
from copilot_eval.history.store import HistoryStore
from copilot_eval.reports.html_run import REPORT_HTML, write_run_report
from copilot_eval.reports.run_folder import RunFolder, read_run_folder

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).


def run_notices(store: HistoryStore, run_id: int, run: EvalRun, *, min_kappa: float = DEFAULT_MIN_KAPPA) -> list[str]:
    """The flags of the graders ``run`` used that fall below ``min_kappa``, and its re-scoring by people."""
    used = {grade.method for result in run.results or [] for grade in result.grades}
    notices = [
        flagged_line(item, min_kappa)
        for item in grader_agreement(store)
        if item.grader in used and item.below(min_kappa)
    ]
    rescored = rescore(store, run_id)
    if rescored.reviewed:
        notices.append(rescored.summary())
    return notices


def folder_notices(
    run_dir: Path | RunFolder, *, history: str | None = None, min_kappa: float = DEFAULT_MIN_KAPPA
) -> tuple[list[str], str | None]:
    """The notices of the run folder at ``run_dir`` from the history every command uses, and why there are
    none when the history could not tell (no database, the run not in it, unreadable); never raises.

    A ``RunFolder`` the caller already read is used as it is, not read again.

    The history is found as every command finds it (``--history``, ``COPILOT_EVAL_HISTORY``, the
    project of the working directory), not inside the run folder.
    """
    left_out = "people's verdicts and low-agreement flags are left out"
    display = "the history database"
    try:
        location = resolve_history(history)
        if location is None:
            return [], None
        display = location.display
        if not location.exists:
            return [], f"history: no database at {display}; {left_out} (name it with --history)"
        with HistoryStore.open(location, create=False) as store:
            folder = read_run_folder(run_dir)
            run_id = stored_id(store, run_key(record_from_folder(folder, source="ingest")))
            if run_id is None:
                return [], (
                    f"history: this run is not in {display}; {left_out} "
                    f"(add it with `copilot-eval history ingest {folder.folder}`)"
                )
            return run_notices(store, run_id, folder.run, min_kappa=min_kappa), None
    except Exception as exc:  # the history is a by-product: a report is written without it, and says so
        reason = str(exc).removeprefix(f"{display}: ")
        return [], f"warning: could not read the history ({display}): {reason}; {left_out}"


def write_report_with_notices(
    store: HistoryStore, run_dir: Path | RunFolder, run_id: int
) -> tuple[list[str], Path | None]:
    """The run's notices, and its report.html written again with them (``None`` when it has no report, or none)."""
    folder = read_run_folder(run_dir)  # read once: the notices and the report both come from it
    notices = run_notices(store, run_id, folder.run)
    if notices and (folder.folder / REPORT_HTML).is_file():
        return notices, write_run_report(folder, notices=notices)
    return notices, None


def stored_id(store: HistoryStore, key: str) -> int | None:
    """The id of the stored run with ``key``, or ``None``."""
    from sqlalchemy import select

    runs = table("Run")
    with store.engine.connect() as connection:
        return connection.execute(select(runs.c.id).where(runs.c.run_key == key)).scalar()


__all__ = ["folder_notices", "run_notices", "stored_id", "write_report_with_notices"]
