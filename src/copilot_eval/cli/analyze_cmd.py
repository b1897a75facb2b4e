"""`copilot-eval analyze RESULTS.csv [--out DIR]`: an honest run from the Evaluate tab's results export.

For people who ran the Evaluate tab themselves: the export becomes an EvalRun (SOURCE-INSPECTED,
read from a file), platform error codes in answers become errors rather than failures, and the
runtime-limitation detection of our own runs says when a low score measures the platform.
The run folder (run.json) is added to the history like a run's (``--history``, ``--no-history``).
Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided by
``runs.gates``: 3 when nothing could be graded or a runtime limitation is recorded; 2 unreadable
input, every problem listed.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.history_record import NoHistoryOption, RecordHistoryOption, record_history


def analyze(
    export: Annotated[Path, typer.Argument(metavar="RESULTS.csv", help="Results CSV exported from the Evaluate tab.")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Where run.json goes (default: eval-runs/NAME-analysis-TIME).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Test-set name for the run (default: file stem).")] = None,
    history: RecordHistoryOption = None,
    no_history: NoHistoryOption = False,
) -> None:
    """Read an Evaluate-tab results export, judge it like our own runs, write run.json and print the summary."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.atomic_write import write_bytes_atomically
    from copilot_eval.evalsets import EvalSetError, to_json
    from copilot_eval.history.records import SOURCE_ANALYZE
    from copilot_eval.platform_runs.export import run_from_export
    from copilot_eval.reports.console import make_console
    from copilot_eval.reports.run_folder import RUN_JSON
    from copilot_eval.reports.terminal import print_summary
    from copilot_eval.runs.gates import run_verdict

    if not export.is_file():
        raise bad_input(f"{export}: results export not found")
    try:
        run, test_set = run_from_export(export, name=name)
    except EvalSetError as exc:
        raise bad_input(str(exc)) from None
    out = out or Path("eval-runs") / f"{export.stem}-analysis-{datetime.now():%Y%m%d-%H%M%S}"
    out.mkdir(parents=True, exist_ok=True)
    write_bytes_atomically(out / RUN_JSON, to_json(run).encode("utf-8"))
    recorded = record_history([out], history, no_history=no_history, source=SOURCE_ANALYZE)
    print_summary(run, test_set, make_console(), extra=[f"output: {out / RUN_JSON}", *recorded])
    raise leave(run_verdict(run))


def register(app: typer.Typer) -> None:
    """Add the `analyze` command."""
    app.command(name="analyze")(analyze)
