"""`copilot-eval merge SHARD_DIR... --out DIR`: one run folder from the folders of `run --shard I/N`.

The merged folder is finished like every run folder (``runs.finish``: report, ``--junit`` per
surface, ``--markdown``, the history unless ``--no-history``), and shard runs already stored in the
history are linked to it, so trends count its cases once.

Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided
by ``runs.gates`` for each merged surface, the worst one's (and, for shards of a trigger run, by
``--min-precision``/``--min-recall`` as ``triggers`` judges, ``triggers.merge``); 2 when refused: every problem is
printed, one per line, and nothing was written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.finished import print_finished
from copilot_eval.cli.history_record import NoHistoryOption, RecordHistoryOption
from copilot_eval.cli.options import (
    FailUnderOption,
    JunitOption,
    MarkdownOption,
    MaxErrorsOption,
    MinPrecisionOption,
    MinRecallOption,
)
from copilot_eval.untrusted.terminal import terminal_text


def merge(
    shard_dirs: Annotated[
        list[Path],
        typer.Argument(metavar="SHARD_DIR...", help="Run folders written by `copilot-eval run --shard I/N`."),
    ],
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Folder the merged run is written to.")],
    allow_partial: Annotated[
        bool,
        typer.Option(
            "--allow-partial",
            help="Merge although shards are missing or unfinished; the run names the conversations not played.",
        ),
    ] = False,
    junit: JunitOption = None,
    markdown: MarkdownOption = None,
    fail_under: FailUnderOption = None,
    max_errors: MaxErrorsOption = 0,
    history: RecordHistoryOption = None,
    no_history: NoHistoryOption = False,
    min_precision: MinPrecisionOption = None,
    min_recall: MinRecallOption = None,
) -> None:
    """Merge the run folders of a sharded run into one run folder, after checking they belong together."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.history.records import SOURCE_MERGE
    from copilot_eval.reports.console import make_console
    from copilot_eval.runs.finish import STDOUT, FinishOptions, FolderRun, finish_run_folders
    from copilot_eval.runs.gates import Gates
    from copilot_eval.runs.merge import MergeError, merge_run_folders
    from copilot_eval.triggers.merge import (
        check_trigger_documents,
        has_trigger_documents,
        merge_trigger_documents,
        merged_trigger_gates,
        merged_trigger_verdict,
    )

    triggers = has_trigger_documents(shard_dirs)  # shards of `triggers --shard I/N`: their triggers.json too
    try:
        trigger_gates = merged_trigger_gates(min_precision, min_recall, triggers=triggers)
        if triggers:
            check_trigger_documents(shard_dirs)
        merged = merge_run_folders(shard_dirs, out, allow_partial=allow_partial)
        if triggers:
            merge_trigger_documents(shard_dirs, out)  # before finishing: the report shows its figures
    except (MergeError, ValueError) as exc:
        refused = bad_input(f"cannot merge {len(shard_dirs)} folders, nothing was written:")
        for problem in exc.problems if isinstance(exc, MergeError) else str(exc).splitlines():
            typer.echo(f"  - {terminal_text(problem)}", err=True)
        raise refused from None
    options = FinishOptions(
        junit=junit,
        markdown=markdown,
        history=history,
        no_history=no_history,
        source=SOURCE_MERGE,  # the shard runs already stored are linked to it, so trends count its cases once
        gates=Gates(fail_under=fail_under, max_errors=max_errors),
    )
    finished = finish_run_folders(
        [FolderRun(m.folder.folder, m.run, m.folder.test_set, m.label) for m in merged if m.folder.test_set], options
    )

    def shards(item: Any) -> list[str]:
        record = item.run.merge
        return [f"merged shards {', '.join(str(i) for i in record.shards)} of {record.shard_count}"] if record else []

    verdict = merged_trigger_verdict(finished.verdict, out, trigger_gates) if triggers else None
    raise print_finished(finished, make_console(stderr=markdown == STDOUT), extra=shards, verdict=verdict)


def register(app: typer.Typer) -> None:
    """Add the `merge` command."""
    app.command(name="merge")(merge)
