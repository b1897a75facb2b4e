"""`copilot-eval merge SHARD_DIR... --out DIR`: one run folder from the folders of `run --shard I/N`.

The merged run is added to the history (``--history``, ``--no-history``; never a failure), and
shard runs already stored are linked to it, so trends count its cases once.

Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided
by ``runs.gates`` for each merged surface, the worst one's; 2 when refused: every problem is
printed, one per line, and nothing was written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.history_record import NoHistoryOption, RecordHistoryOption, record_history


def merge(
    shard_dirs: Annotated[
        list[Path],
        typer.Argument(metavar="SHARD_DIR...", help="Run folders written by `copilot-eval run --shard I/N`."),
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder the merged run is written to.")],
    allow_partial: Annotated[
        bool,
        typer.Option(
            "--allow-partial",
            help="Merge although shards are missing or unfinished; the run names the conversations not played.",
        ),
    ] = False,
    junit: Annotated[
        Path | None,
        typer.Option("--junit", help="Also write the merged run as JUnit XML (one file per surface: NAME-LABEL.xml)."),
    ] = None,
    fail_under: Annotated[
        float | None,
        typer.Option("--fail-under", min=0, max=100, help="Exit 1 when the merged score is below this percent."),
    ] = None,
    history: RecordHistoryOption = None,
    no_history: NoHistoryOption = False,
) -> None:
    """Merge the run folders of a sharded run into one run folder, after checking they belong together."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.history.records import SOURCE_MERGE
    from copilot_eval.reports.after_run import write_run_reports
    from copilot_eval.reports.console import make_console
    from copilot_eval.reports.terminal import print_summary
    from copilot_eval.runs.gates import Gates, runs_verdict
    from copilot_eval.runs.merge import MergeError, merge_run_folders

    try:
        merged = merge_run_folders(shard_dirs, out, allow_partial=allow_partial)
    except MergeError as exc:
        refused = bad_input(f"cannot merge {len(shard_dirs)} folders, nothing was written:")
        for problem in exc.problems:
            typer.echo(f"  - {problem}", err=True)
        raise refused from None
    console = make_console()
    # Recorded before the summaries, so each says where it went; the shards already there are linked to it.
    recorded = record_history(
        [item.folder.folder for item in merged], history, no_history=no_history, source=SOURCE_MERGE
    )
    for item in merged:
        run, folder = item.run, item.folder
        junit_file = junit
        if junit is not None and item.label is not None:
            junit_file = junit.with_name(f"{junit.stem}-{item.label}{junit.suffix or '.xml'}")
        reports = write_run_reports(folder.folder, junit=junit_file)
        record = run.merge
        extra = [f"merged shards {', '.join(str(i) for i in record.shards)} of {record.shard_count}"] if record else []
        extra.append(f"outputs: {folder.folder / 'run.json'}, {folder.folder / 'results.csv'}")
        if item.label is not None:
            console.print(f"[bold]surface {item.label}[/]")
        assert folder.test_set is not None
        print_summary(
            run, folder.test_set, console, extra=extra + reports.lines + (recorded if item is merged[-1] else [])
        )
    raise leave(runs_verdict([(item.label, item.run) for item in merged], Gates(fail_under=fail_under)))


def register(app: typer.Typer) -> None:
    """Add the `merge` command."""
    app.command(name="merge")(merge)
