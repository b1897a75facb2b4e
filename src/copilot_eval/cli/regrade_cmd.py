"""`copilot-eval regrade RUN_DIR --grader SPEC`: grade a finished run's saved answers again, without the agent.

A run Copilot Studio graded (``studio-eval``, ``analyze``) regraded here, for instance with
``--grader general_quality``, also shows per case and overall where our verdicts agree with the
platform's. The new folder is finished like every run folder (``runs.finish``: report.html,
``--junit``, ``--markdown``, ``--baseline``, the history unless ``--no-history``).

Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided by
``runs.gates`` for the regraded run; 2 bad input (a folder that is not a run, a bad grader spec, a
missing judge file).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input as _bad_input
from copilot_eval.cli.finished import finished_console, print_finished
from copilot_eval.cli.option_groups import BaselineGroup, FinishGroup, GradingGroup, takes_groups
from copilot_eval.cli.options import OutOption
from copilot_eval.commands.regrade import plan_regrade, regrade_planned
from copilot_eval.runs.finish import finish_options
from copilot_eval.runs.prepare import PrepareError
from copilot_eval.runs.regrade import RegradeError


class RegradingGroup(GradingGroup):
    """``GradingGroup`` as regrade takes it: ``--grader`` has no default here, unlike run's (its help says so)."""

    graders: Annotated[
        list[str] | None,
        typer.Option(
            "--grader",
            help="Grader spec, repeatable, as for `run`; needed unless the run was of a prompt file, whose own "
            "evaluators grade it (these are added).",
        ),
    ] = None


@takes_groups
def regrade(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="A folder written by `copilot-eval run --out`.")],
    *,
    grading: RegradingGroup,
    out: OutOption = None,
    finishing: FinishGroup,
    compared: BaselineGroup,
) -> None:
    """Grade the saved answers and evidence of a run with other graders into a new run folder."""
    finish = finish_options(finishing.values() | compared.values())
    try:
        planned = plan_regrade(
            run_dir,
            grading.graders,
            judge_path=grading.judge,
            judge_repeat=grading.judge_repeat,
            prompt_pass_score=grading.prompt_pass_score,
            out=out,
            finish=finish,
        )
        finished, lines = regrade_planned(planned)
    except (PrepareError, RegradeError) as exc:
        raise _bad_input(str(exc)) from None
    raise print_finished(finished, finished_console(finishing.markdown), extra=lines)


def register(app: typer.Typer) -> None:
    """Add the `regrade` command."""
    app.command(name="regrade")(regrade)
