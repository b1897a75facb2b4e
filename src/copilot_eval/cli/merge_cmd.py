"""`copilot-eval merge SHARD_DIR... --out DIR`: one run folder from the folders of `run --shard I/N`.

The merged folder is finished like every run folder (``runs.finish``: report, ``--junit`` per
surface, ``--markdown``, the history unless ``--no-history``), and shard runs already stored in the
history are linked to it, so trends count its cases once.

Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided
by ``runs.gates`` for each merged surface, the worst one's (and, for shards of a trigger run, by
``--min-precision``/``--min-recall`` over the figures ``triggers.merge`` computes again, as ``triggers``
judges); 2 when refused: every problem is printed, one per line, and nothing was written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.finished import finished_console, print_finished
from copilot_eval.cli.option_groups import FinishGroup, takes_groups
from copilot_eval.cli.options import MinPrecisionOption, MinRecallOption
from copilot_eval.commands.merge import finish_merge, merge_shards, shard_lines
from copilot_eval.runs.finish import finish_options
from copilot_eval.runs.merge import MergeError
from copilot_eval.untrusted.terminal import terminal_text


@takes_groups
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
    *,
    finishing: FinishGroup,
    min_precision: MinPrecisionOption = None,
    min_recall: MinRecallOption = None,
) -> None:
    """Merge the run folders of a sharded run into one run folder, after checking they belong together."""
    finish = finish_options(finishing.values())
    try:
        merged = merge_shards(
            shard_dirs, out, allow_partial=allow_partial, min_precision=min_precision, min_recall=min_recall
        )
    except (MergeError, ValueError) as exc:
        refused = bad_input(f"cannot merge {len(shard_dirs)} folders, nothing was written:")
        for problem in exc.problems if isinstance(exc, MergeError) else str(exc).splitlines():
            typer.echo(f"  - {terminal_text(problem)}", err=True)
        raise refused from None
    finished = finish_merge(merged, out, finish)
    raise print_finished(finished, finished_console(finishing.markdown), extra=shard_lines)


def register(app: typer.Typer) -> None:
    """Add the `merge` command."""
    app.command(name="merge")(merge)
