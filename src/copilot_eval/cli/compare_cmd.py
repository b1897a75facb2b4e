"""`copilot-eval compare RUN_A RUN_B`: what changed from a baseline run to a candidate run.

Exit codes (``copilot_eval.exit_codes``): 0 compared (whatever changed); 1 with
``--fail-on-regression`` when any case regressed (one that is not graded now is listed apart as an
error, never a regression); 2 a folder holds no readable run.json, or the two runs
played different test sets (``--allow-other-set`` compares them anyway).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.options import AllowOtherSetOption, FailOnRegressionOption
from copilot_eval.reports.compare_views import comparison_html, comparison_markdown, print_comparison
from copilot_eval.reports.console import make_console
from copilot_eval.reports.run_comparison import CompareError, compare_folders
from copilot_eval.runs.gates import Gates, regression_verdict


def compare(
    baseline: Annotated[Path, typer.Argument(metavar="RUN_A", help="The baseline run folder.")],
    candidate: Annotated[Path, typer.Argument(metavar="RUN_B", help="The candidate run folder.")],
    # declared like report's --html (alike in shape): the comparison's Markdown, not a run's summary
    markdown: Annotated[
        str | None,
        typer.Option(
            "--markdown",
            metavar="FILE",
            help="Write the comparison as Markdown to this "
            "file, or '-' for stdout (a PR comment, $GITHUB_STEP_SUMMARY).",
        ),
    ] = None,
    html: Annotated[
        Path | None, typer.Option("--html", metavar="FILE", help="Write the comparison as an HTML page.")
    ] = None,
    fail_on_regression: FailOnRegressionOption = False,
    allow_other_set: AllowOtherSetOption = False,
) -> None:
    """Compare two runs: cases regressed, in error now, improved, changed, new, removed, unchanged; the score delta."""
    try:
        comparison = compare_folders(baseline, candidate, allow_other_set=allow_other_set)
    except CompareError as exc:
        raise bad_input(str(exc)) from None
    if markdown == "-":
        typer.echo(comparison_markdown(comparison), nl=False)
    else:
        print_comparison(comparison, make_console())
        if markdown:
            write_text_atomically(markdown, comparison_markdown(comparison))
    if html:
        write_text_atomically(
            html, comparison_html(comparison, baseline_label=str(baseline), candidate_label=str(candidate))
        )
    verdict = regression_verdict(comparison, baseline, Gates(fail_on_regression=fail_on_regression))
    if verdict.code:  # the one rule `run --baseline` and `gate` read a regression by
        raise leave(verdict)


def register(app: typer.Typer) -> None:
    """Add the `compare` command."""
    app.command(name="compare")(compare)
