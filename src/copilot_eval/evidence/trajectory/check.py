"""The trajectory of a recorded run checked in one call: the result helper and the assertion helper.

``CopilotResult.trajectory(...)`` returns the verdict; ``assert_trajectory(...)`` raises an
AssertionError whose text is the verdict's diff. Both take the same options as the grader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from copilot_eval.evidence.trajectory.alignment import MatchMode
from copilot_eval.evidence.trajectory.from_result import observed_calls
from copilot_eval.evidence.trajectory.steps import StepLike
from copilot_eval.evidence.trajectory.verdict import Metric, TrajectoryMatch, match_trajectory

if TYPE_CHECKING:  # the result model imports this module; only its attributes are read here
    from copilot_eval.evidence.result import CopilotResult


def check_trajectory(
    result: CopilotResult,
    steps: Sequence[StepLike],
    *,
    turn: int | None = None,
    mode: MatchMode | str = MatchMode.IN_ORDER,
    forbidden: Sequence[str | re.Pattern[str]] = (),
    max_steps: int | None = None,
    threshold: float | None = None,
    metric: Metric = "f1",
    subagent_calls: bool = True,
) -> TrajectoryMatch:
    """Match ``steps`` against the calls ``result`` recorded (user turn ``turn``'s only, when given).

    Also ``result.trajectory(steps, ...)``; ``assert m, m.diff()`` (see docs/graders.md).
    """
    calls = observed_calls(result, turn=turn, subagent_calls=subagent_calls)
    return match_trajectory(
        steps, calls, mode=mode, forbidden=forbidden, max_steps=max_steps, threshold=threshold, metric=metric
    )


# The options are spelled out again (not **kwargs) on purpose: the signature is what IDEs, help()
# and mypy show the user (CopilotResult.trajectory is check_trajectory itself).
def assert_trajectory(
    result: CopilotResult,
    steps: Sequence[StepLike],
    *,
    turn: int | None = None,
    mode: MatchMode | str = MatchMode.IN_ORDER,
    forbidden: Sequence[str | re.Pattern[str]] = (),
    max_steps: int | None = None,
    threshold: float | None = None,
    metric: Metric = "f1",
    subagent_calls: bool = True,
) -> TrajectoryMatch:
    """Like :func:`check_trajectory`, raising AssertionError with the diff when it does not match."""
    __tracebackhide__ = True  # pytest shows the caller's line, not this helper's
    match = check_trajectory(
        result,
        steps,
        turn=turn,
        mode=mode,
        forbidden=forbidden,
        max_steps=max_steps,
        threshold=threshold,
        metric=metric,
        subagent_calls=subagent_calls,
    )
    if not match.passed:
        raise AssertionError(match.diff())
    return match


__all__ = ["assert_trajectory", "check_trajectory"]
