"""What the history keeps of the transcript scanners' findings: counted per scanner, unknown for a run never scanned."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from copilot_eval.history import HistoryStore, list_runs, resolve_history, runs_document
from copilot_eval.history.ingest import ingest_folders
from copilot_eval.history.terminal import runs_table
from copilot_eval.scans import BUILTIN_SCANNERS, scan_run_folder
from tests.scans.builders import conversation
from tests.scans.run_folders import write_folder


def test_findings_are_counted_per_run_and_a_run_never_scanned_is_unknown(history_url, tmp_path: Path) -> None:
    scanned, unscanned = tmp_path / "scanned", tmp_path / "unscanned"
    played = [
        (conversation(("user", "weather?"), ("answer", "HTTP 503 Service Unavailable")), None, False),
        (conversation(("user", "hours?"), ("answer", "I'm sorry, but I can't help with that.")), None, False),
    ]
    write_folder(scanned, played)
    write_folder(unscanned, played[:1])  # another run (the history knows a run once, by what it holds)
    scan_run_folder(scanned, BUILTIN_SCANNERS)
    location = resolve_history(history_url)
    assert location is not None
    with HistoryStore.open(location) as store:
        ingest_folders(store, [scanned, unscanned])
        stored = list_runs(store)
    by_folder = {Path(run["runFolder"]).name: run for run in runs_document(stored, database="db")["runs"]}
    findings = by_folder["scanned"]["findings"]
    assert findings["platform_error"] == 1 and findings["refusal"] == 1 and findings["loop"] == 0
    assert set(findings) == {scanner.name for scanner in BUILTIN_SCANNERS}
    assert by_folder["unscanned"]["findings"] is None  # unknown, not "nothing found"
    console = Console(width=250)
    with console.capture() as shown:
        console.print(runs_table(stored, title="runs"))
    assert "2 finding(s)" in shown.get()
