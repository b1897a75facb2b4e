"""``copilot-eval regrade`` on the commands floor: plan (graders, baseline), play (grade the saved answers), finish.

Everything that can be refused is refused in ``plan_regrade`` (``PrepareError`` or ``RegradeError``
naming the folder, option or grader) before a judge is asked; ``regrade_planned`` grades the saved
answers into the new folder (evidence only) and has the finisher write it and decide the verdict.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import EvalRun, EvalTestSet
from copilot_eval.history.records import SOURCE_REGRADE
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.platform_agreement import agreement_lines, is_platform_run, platform_agreement
from copilot_eval.runs.fingerprints import set_graders_fingerprint
from copilot_eval.runs.finish import Finished, FinishOptions, FolderRun, baseline_problem, finish_run_folders
from copilot_eval.runs.prepare import PrepareError, build_set_graders, check_graders_fit, load_agent
from copilot_eval.runs.regrade import read_saved_run, regrade_saved_run


@dataclass(frozen=True)
class PlannedRegrade:
    """A regrade checked and ready: the run read back, its set, the graders, the new folder and how it finishes."""

    run_dir: Path
    out: Path
    before: EvalRun
    test_set: EvalTestSet
    graders: list[Any]
    judge: Any
    fingerprint: str
    finish: FinishOptions


def plan_regrade(
    run_dir: Path,
    grader: Sequence[str] | None,
    *,
    judge_path: Path | None,
    judge_repeat: int,
    prompt_pass_score: Sequence[str] | None,
    out: Path | None,
    finish: FinishOptions,
) -> PlannedRegrade:
    """Read the run, build the graders as ``run`` does (``runs.prepare``), check the baseline; raise what cannot work."""
    judge = load_agent(judge_path, option="--judge") if judge_path is not None else None
    before, test_set = read_saved_run(run_dir)
    if not grader and test_set.prompt_file is None:
        raise PrepareError("--grader: name the graders to grade the run with (a prompt file's run has its own)")
    graders = build_set_graders(
        test_set, grader, judge=judge, judge_repeat=judge_repeat, pass_scores=prompt_pass_score, row_methods=False
    )
    check_graders_fit(test_set, graders, run_dir / LAYOUT.test_set_json)
    played = before.fingerprints.test_set if before.fingerprints is not None else None
    problem = baseline_problem(
        finish.baseline, test_set=test_set, fingerprint=played, allow_other_set=finish.allow_other_set
    )
    if problem:
        raise PrepareError(problem)
    fingerprint = set_graders_fingerprint(
        test_set, grader, judge_path=judge_path, judge_repeat=judge_repeat, prompt_pass_scores=prompt_pass_score
    )
    out = out or run_dir.with_name(f"{run_dir.name}-regraded-{datetime.now():%Y%m%d-%H%M%S}")
    return PlannedRegrade(
        run_dir, out, before, test_set, graders, judge, fingerprint, replace(finish, source=SOURCE_REGRADE)
    )


def regrade_planned(planned: PlannedRegrade) -> tuple[Finished, list[str]]:
    """Grade the saved answers into the new folder, then finish it; the finished folder and the regrade's lines.

    RegradeError when the saved answers cannot be graded (nothing is finished then).
    """
    try:
        result = asyncio.run(
            regrade_saved_run(
                planned.run_dir, planned.graders, output_dir=planned.out, graders_fingerprint=planned.fingerprint
            )
        )
    finally:
        if planned.judge is not None or any(hasattr(g, "judge") for g in planned.graders):
            # imported on use: it loads the Copilot SDK (about 0.6 s), needed only when a judge played
            from copilot_eval.runtime.process.pool import close_all_pools

            close_all_pools()
    finished = finish_run_folders([FolderRun(planned.out, result, planned.test_set)], planned.finish)
    lines = ["regraded without running the agent"]
    if is_platform_run(planned.before):  # a run Copilot Studio graded: where our graders agree with its verdicts
        lines += agreement_lines(platform_agreement(planned.before, result))
    return finished, lines


__all__ = ["PlannedRegrade", "plan_regrade", "regrade_planned"]
