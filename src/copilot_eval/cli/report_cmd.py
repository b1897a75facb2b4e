"""`copilot-eval report RUN_DIR`: write the self-contained HTML report of a run folder (and a Markdown summary).

Exit codes (``copilot_eval.exit_codes``): 0 written; 2 the folder holds no readable run.json.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.options import MarkdownOption
from copilot_eval.evalsets import EvalSetError
from copilot_eval.history.run_notices import folder_notices
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.run_folder import read_run_folder


def report(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="A run folder written by `copilot-eval run`.")],
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="FILE",
            help="HTML file to write (default: RUN_DIR/report.html). `--out` names a run folder everywhere else.",
        ),
    ] = None,
    markdown: MarkdownOption = None,
    history: Annotated[
        str | None,
        typer.Option(
            "--history",
            metavar="URL",
            help="History database whose reviews the report shows (graders people disagree with, verdicts people "
            "changed); default: env COPILOT_EVAL_HISTORY, else .copilot-eval/history.db; off to leave them out.",
        ),
    ] = None,
) -> None:
    """Write the HTML report of a run: summary, limitation, repeats, charts, a drill-down per case."""

    try:
        folder = read_run_folder(run_dir)
    except EvalSetError as exc:
        raise bad_input(str(exc)) from None
    target = html or folder.folder / LAYOUT.report_html
    notices, unread = folder_notices(folder, history=history)
    if unread is not None:
        typer.echo(unread, err=True)
    write_text_atomically(target, run_report_html(folder, notices=notices))
    typer.echo(f"report: {target}", err=markdown == "-")
    if markdown == "-":
        typer.echo(run_summary_markdown(folder.run), nl=False)
    elif markdown:
        write_text_atomically(markdown, run_summary_markdown(folder.run))


def register(app: typer.Typer) -> None:
    """Add the `report` command."""
    app.command(name="report")(report)
