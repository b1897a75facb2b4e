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

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input as _bad_input
from copilot_eval.cli.finished import print_finished
from copilot_eval.cli.history_record import NoHistoryOption, RecordHistoryOption
from copilot_eval.cli.options import (
    AllowOtherSetOption,
    BaselineOption,
    FailOnRegressionOption,
    FailUnderOption,
    JunitOption,
    MarkdownOption,
    MaxErrorsOption,
)
from copilot_eval.reports.folder_layout import LAYOUT


def regrade(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="A folder written by `copilot-eval run --out`.")],
    grader: Annotated[
        list[str] | None,
        typer.Option(
            "--grader",
            help="Grader spec, repeatable (as for `run`); a prompt file's run is graded by its evaluators, "
            "and these are added.",
        ),
    ] = None,
    judge_path: Annotated[Path | None, typer.Option("--judge", help="Judge agent file for LLM graders.")] = None,
    judge_repeat: Annotated[
        int, typer.Option("--judge-repeat", min=1, help="Ask each LLM judge J times per answer (as for `run`).")
    ] = 1,
    out: Annotated[
        Path | None, typer.Option("--out", metavar="DIR", help="New run folder (default: RUN_DIR-regraded-TIME).")
    ] = None,
    prompt_pass_score: Annotated[
        list[str] | None,
        typer.Option(
            "--prompt-pass-score",
            metavar="[NAME=]MARK",
            help="A prompt file's LLM evaluators: pass at this share of the top score (as for `run`).",
        ),
    ] = None,
    junit: JunitOption = None,
    markdown: MarkdownOption = None,
    fail_under: FailUnderOption = None,
    max_errors: MaxErrorsOption = 0,
    baseline: BaselineOption = None,
    allow_other_set: AllowOtherSetOption = False,
    fail_on_regression: FailOnRegressionOption = False,
    history: RecordHistoryOption = None,
    no_history: NoHistoryOption = False,
) -> None:
    """Grade the saved answers and evidence of a run with other graders into a new run folder."""
    # imported on use: every command module loads with `--help` (see app.py)
    import asyncio

    from copilot_eval.history.records import SOURCE_REGRADE
    from copilot_eval.reports.console import make_console
    from copilot_eval.reports.platform_agreement import agreement_lines, is_platform_run, platform_agreement
    from copilot_eval.runs.fingerprints import graders_fingerprint
    from copilot_eval.runs.finish import STDOUT, FinishOptions, FolderRun, baseline_problem, finish_run_folders
    from copilot_eval.runs.gates import Gates
    from copilot_eval.runs.prepare import PrepareError, build_set_graders, check_graders_fit, load_agent
    from copilot_eval.runs.regrade import RegradeError, read_saved_run, regrade_run

    try:
        # The same agent loading and grader building as `copilot-eval run` (runs/prepare.py).
        judge = load_agent(judge_path, option="--judge") if judge_path is not None else None
        before, test_set = read_saved_run(run_dir)
        if not grader and test_set.prompt_file is None:
            raise PrepareError("--grader: name the graders to grade the run with (a prompt file's run has its own)")
        graders = build_set_graders(
            test_set, grader, judge=judge, judge_repeat=judge_repeat, pass_scores=prompt_pass_score, row_methods=False
        )
        check_graders_fit(test_set, graders, run_dir / LAYOUT.test_set_json)
    except (PrepareError, RegradeError) as exc:
        raise _bad_input(str(exc)) from None
    played = before.fingerprints.test_set if before.fingerprints is not None else None
    if problem := baseline_problem(baseline, test_set=test_set, fingerprint=played, allow_other_set=allow_other_set):
        raise _bad_input(problem)
    fingerprint = graders_fingerprint(
        grader,
        judge_path=judge_path,
        judge_repeat=judge_repeat,
        prompt_pass_scores=prompt_pass_score,
        default=() if test_set.prompt_file is not None else ("similarity",),
    )
    out = out or run_dir.with_name(f"{run_dir.name}-regraded-{datetime.now():%Y%m%d-%H%M%S}")
    try:
        result = asyncio.run(regrade_run(run_dir, graders, output_dir=out, graders_fingerprint=fingerprint))
    except RegradeError as exc:
        raise _bad_input(str(exc)) from None
    finally:
        if judge is not None or any(hasattr(g, "judge") for g in graders):
            # imported on use: it loads the Copilot SDK (about 0.6 s), which `--help` must not
            from copilot_eval.runtime.process.pool import close_all_pools

            close_all_pools()
    options = FinishOptions(
        junit=junit,
        markdown=markdown,
        baseline=baseline,
        history=history,
        no_history=no_history,
        source=SOURCE_REGRADE,
        allow_other_set=allow_other_set,
        gates=Gates(fail_under=fail_under, fail_on_regression=fail_on_regression, max_errors=max_errors),
    )
    finished = finish_run_folders([FolderRun(out, result, test_set)], options)
    console = make_console(stderr=markdown == STDOUT)
    extra = ["regraded without running the agent"]
    if is_platform_run(before):  # a run Copilot Studio graded: where our graders agree with its verdicts
        extra += agreement_lines(platform_agreement(before, result))
    raise print_finished(finished, console, extra=extra)


def register(app: typer.Typer) -> None:
    """Add the `regrade` command."""
    app.command(name="regrade")(regrade)
