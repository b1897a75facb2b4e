"""Match expected steps against recorded calls: a verdict, scores, and a diff a person can read.

Scores count calls: precision is the share of recorded calls that matched a step, recall the
share of steps that found their call, F1 their harmonic mean (all 0-1, over the mode's
alignment). With no steps and no calls all three are 1; with exactly one side empty F1 is 0 and
the side that has nothing to divide by is ``None``. A step's own score is 1 when matched,
otherwise the share of its checks the closest call of the same name passed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from copilot_eval.evidence.trajectory.alignment import (
    MODE_WORDS,
    MatchMode,
    align,
    as_mode,
    calls_must_be_expected,
    mode_satisfied,
    steps_must_be_found,
)
from copilot_eval.evidence.trajectory.calls import ObservedCall
from copilot_eval.evidence.trajectory.steps import Step, StepLike, as_step, name_label, name_matches, name_pattern

Metric = Literal["f1", "precision", "recall"]
METRICS: tuple[Metric, ...] = ("f1", "precision", "recall")


@dataclass(frozen=True)
class TrajectoryMatch:
    """The verdict of one trajectory check: passed or not, why, and how close it came.

    ``pairs`` maps each matched step (0-based) to its call (0-based); ``problems`` holds one
    line per gap (a missing step, an unexpected call, a forbidden call, too many calls). True in
    a boolean context when it passed, so ``assert match, match.diff()`` reads well.
    """

    passed: bool
    mode: MatchMode
    steps: tuple[Step, ...]
    calls: tuple[ObservedCall, ...]
    pairs: dict[int, int]
    step_scores: tuple[float, ...]
    precision: float | None
    recall: float | None
    f1: float
    metric: Metric
    threshold: float | None
    problems: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.passed

    @property
    def score(self) -> float | None:
        """The chosen metric (F1 unless another was asked for), 0-1."""
        return {"f1": self.f1, "precision": self.precision, "recall": self.recall}[self.metric]

    @property
    def summary(self) -> str:
        """One line: how many steps matched, how many calls were made, and the scores."""

        def shown(value: float | None) -> str:
            return "n/a" if value is None else f"{value:.2f}"

        calls = f"{len(self.calls)} call{'' if len(self.calls) == 1 else 's'} made"
        scores = f"precision {shown(self.precision)}, recall {shown(self.recall)}, f1 {shown(self.f1)}"
        steps = ""
        if any(score < 1 for score in self.step_scores):
            steps = "; step scores " + ", ".join(f"{score:.2g}" for score in self.step_scores)
        return f"{len(self.pairs)} of {len(self.steps)} expected steps matched, {calls} ({scores}){steps}"

    @property
    def reason(self) -> str:
        """The mode, the summary and every problem on one line, as a grade's reason."""
        return "; ".join([f"{self.mode.value}: {self.summary}", *self.problems])

    def diff(self) -> str:
        """A multi-line account: the verdict, every problem, then each call with the step it matched."""
        verdict = "trajectory matches" if self.passed else "trajectory does not match"
        lines = [f"{verdict} ({self.mode.value}: {MODE_WORDS[self.mode]}): {self.summary}"]
        lines += [f"  {problem}" for problem in self.problems]
        step_of = {call: step for step, call in self.pairs.items()}
        lines.append("calls made:" if self.calls else "calls made: none")
        for index, call in enumerate(self.calls):
            outcome = call.outcome_note() or "ok"
            where = f" in turn {call.turn}" if call.turn is not None else ""
            inside = f" inside {call.agent}" if call.agent else ""
            matched = f"  <- step {step_of[index] + 1}" if index in step_of else ""
            lines.append(f"  {call.position}. {call.label()} [{outcome}]{where}{inside}{matched}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<TrajectoryMatch {'passed' if self.passed else 'failed'}: {self.reason}>"


def _scores(steps: int, calls: int, matched: int) -> tuple[float | None, float | None, float]:
    if steps == 0 and calls == 0:
        return 1.0, 1.0, 1.0
    precision = matched / calls if calls else None
    recall = matched / steps if steps else None
    if precision is None or recall is None or precision + recall == 0:
        return precision, recall, 0.0
    return precision, recall, 2 * precision * recall / (precision + recall)


def _window(pairs: dict[int, int], step: int, calls: int) -> range:
    """The calls an unmatched step could sit between, keeping the order of the matched steps."""
    before = [call for s, call in pairs.items() if s < step]
    after = [call for s, call in pairs.items() if s > step]
    return range(max(before) + 1 if before else 0, min(after) if after else calls)


def _missing_step(
    match_mode: MatchMode, index: int, step: Step, calls: Sequence[ObservedCall], pairs: dict[int, int]
) -> str:
    head = f"expected step {index + 1} `{step.label()}`"
    used = set(pairs.values())
    same_name = [j for j, call in enumerate(calls) if step.names_call(call)]
    if match_mode is MatchMode.STRICT:
        if index >= len(calls):
            return f"{head}, got no call {index + 1} (the agent made {len(calls)})"
        call = calls[index]
        if not step.names_call(call):
            elsewhere = next((c.position for c in calls if step.matches(c)), None)
            later = f" (it is call {elsewhere})" if elsewhere is not None else ""
            return f"{head}, got `{call.label()}` at call {call.position}{later}"
        return f"{head}, got `{call.label()}` at call {call.position} ({'; '.join(step.mismatches(call))})"
    free = [j for j in same_name if j not in used]
    if not same_name:
        return f"{head}: no call of {name_label(step.name)}"
    if not free:
        taken = ", ".join(str(calls[j].position) for j in same_name)
        return f"{head}: no other call of {name_label(step.name)} (call {taken} matched other steps)"
    window = _window(pairs, index, len(calls)) if match_mode is MatchMode.IN_ORDER else range(len(calls))
    near = [j for j in free if j in window] or free
    best = max(near, key=lambda j: (step.partial_score(calls[j]), -j))
    call = calls[best]
    why = "; ".join(step.mismatches(call))
    if not why:  # it fits, only not here
        return f"{head}: `{call.label()}` at call {call.position} matches it but out of order"
    return f"{head}, got `{call.label()}` at call {call.position} ({why})"


def _step_score(step: Step, index: int, calls: Sequence[ObservedCall], pairs: dict[int, int]) -> float:
    if index in pairs:
        return 1.0
    return max((step.partial_score(call) for call in calls if step.names_call(call)), default=0.0)


def _forbidden_problems(calls: Sequence[ObservedCall], forbidden: Sequence[str | re.Pattern[str]]) -> list[str]:
    names = [name_pattern(f) if isinstance(f, str) else f for f in forbidden]
    problems = []
    for call in calls:
        hit = next((n for n in names if name_matches(n, call.name) or name_matches(n, call.via_tool)), None)
        if hit is not None:
            problems.append(f"forbidden call {call.position} `{call.label()}` (forbidden: {name_label(hit)})")
    return problems


def _check_options(metric: str, threshold: float | None, max_steps: int | None) -> None:
    if metric not in METRICS:
        raise ValueError(f"unknown trajectory metric {metric!r} (choose one of {', '.join(METRICS)})")
    if threshold is not None and not 0 <= threshold <= 1:
        raise ValueError(f"trajectory threshold must be between 0 and 1, got {threshold}")
    if max_steps is not None and max_steps < 0:
        raise ValueError(f"max_steps must be 0 or more, got {max_steps}")


def _gaps(
    mode: MatchMode, steps: Sequence[Step], calls: Sequence[ObservedCall], pairs: dict[int, int], scored: bool
) -> list[str]:
    """One line per missing step and per unexpected call, where the mode (or a threshold) cares."""
    problems: list[str] = []
    if steps_must_be_found(mode) or scored:
        problems += [_missing_step(mode, i, s, calls, pairs) for i, s in enumerate(steps) if i not in pairs]
    if calls_must_be_expected(mode) or scored:
        start = len(steps) if mode is MatchMode.STRICT else 0  # strict named the calls up to here already
        used = set(pairs.values())
        problems += [
            f"unexpected call {call.position} `{call.label()}`"
            for j, call in enumerate(calls)
            if j not in used and j >= start
        ]
    return problems


def match_trajectory(
    expected: Sequence[StepLike],
    calls: Sequence[ObservedCall],
    *,
    mode: MatchMode | str = MatchMode.IN_ORDER,
    forbidden: Sequence[str | re.Pattern[str]] = (),
    max_steps: int | None = None,
    threshold: float | None = None,
    metric: Metric = "f1",
) -> TrajectoryMatch:
    """Match ``expected`` steps against recorded ``calls``.

    Passes when the calls line up as ``mode`` asks (or, with ``threshold``, when ``metric``
    reaches it), no call is ``forbidden`` (names or patterns; a call that failed still counts as
    made) and there are at most ``max_steps`` calls.
    """
    match_mode = as_mode(mode)
    steps = tuple(as_step(step) for step in expected)
    _check_options(metric, threshold, max_steps)
    fits: dict[tuple[int, int], bool] = {}

    def fit(i: int, j: int) -> bool:
        if (i, j) not in fits:
            fits[(i, j)] = steps[i].matches(calls[j])
        return fits[(i, j)]

    pairs = align(match_mode, len(steps), len(calls), fit)
    precision, recall, f1 = _scores(len(steps), len(calls), len(pairs))
    result = TrajectoryMatch(
        passed=False,
        mode=match_mode,
        steps=steps,
        calls=tuple(calls),
        pairs=pairs,
        step_scores=tuple(_step_score(s, i, calls, pairs) for i, s in enumerate(steps)),
        precision=precision,
        recall=recall,
        f1=f1,
        metric=metric,
        threshold=threshold,
        problems=(),
    )
    problems = _gaps(match_mode, steps, calls, pairs, threshold is not None)
    ok = mode_satisfied(match_mode, pairs, len(steps), len(calls))
    if threshold is not None:
        score = result.score
        ok = score is not None and score >= threshold
        if not ok:
            shown = "unknown" if score is None else f"{score:.2f}"
            problems.insert(0, f"{metric} {shown} is below the threshold {threshold:.2f}")
    forbidden_hits = _forbidden_problems(calls, forbidden)
    too_many = max_steps is not None and len(calls) > max_steps
    problems += forbidden_hits + ([f"{len(calls)} calls, more than the maximum of {max_steps}"] if too_many else [])
    return replace(result, passed=ok and not forbidden_hits and not too_many, problems=tuple(problems))


__all__ = ["METRICS", "Metric", "TrajectoryMatch", "match_trajectory"]
