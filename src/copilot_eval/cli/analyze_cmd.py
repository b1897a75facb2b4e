"""`copilot-eval analyze RESULTS.csv [--out DIR]`: an honest run from the Evaluate tab's results export.

For people who ran the Evaluate tab themselves: the export becomes an EvalRun (SOURCE-INSPECTED,
read from a file), platform error codes in answers become errors rather than failures, and the
runtime-limitation detection of our own runs says when a low score measures the platform.
The folder is a whole run folder (``runs.finish``: run.json, results.csv, test-set.json, the export
kept in evidence/, report.html, ``--junit``, ``--markdown``, the history unless ``--no-history``), so
``regrade``, ``report``, ``compare`` and ``merge`` read it like any other. Exit codes: the table of
``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided by ``runs.gates``: 3 when
nothing could be graded or a runtime limitation is recorded; 2 unreadable input, every problem listed.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.finished import finished_console, print_finished
from copilot_eval.cli.option_groups import FinishGroup, takes_groups
from copilot_eval.cli.options import OutOption
from copilot_eval.commands.analyze import analyze_export
from copilot_eval.evalsets import EvalSetError
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.runs.finish import finish_options


@takes_groups
def analyze(
    export: Annotated[Path, typer.Argument(metavar="RESULTS.csv", help="Results CSV exported from the Evaluate tab.")],
    out: OutOption = None,
    name: Annotated[str | None, typer.Option("--name", help="Test-set name for the run (default: file stem).")] = None,
    agent_name: Annotated[
        str | None,
        typer.Option(
            "--agent-name",
            metavar="NAME",
            help="The agent the export evaluated (the file does not say): the history and the dashboard keep "
            "each agent's runs as a series of their own.",
        ),
    ] = None,
    *,
    finishing: FinishGroup,
) -> None:
    """Read an Evaluate-tab results export, judge it like our own runs, write its run folder and print the summary."""
    if not export.is_file():
        raise bad_input(f"{export}: results export not found")
    out = out or Path("eval-runs") / f"{export.stem}-analysis-{datetime.now():%Y%m%d-%H%M%S}"
    if (out / LAYOUT.run_json).exists():
        raise bad_input(f"--out {out} already holds a run (run.json); choose a new folder")
    finish = finish_options(finishing.values())
    try:
        finished = analyze_export(export, out, name=name, agent_name=agent_name, finish=finish)
    except EvalSetError as exc:
        raise bad_input(str(exc)) from None
    raise print_finished(finished, finished_console(finishing.markdown))


def register(app: typer.Typer) -> None:
    """Add the `analyze` command."""
    app.command(name="analyze")(analyze)
