"""Stacked graders: one case status from several grades.

A definite fail by any grader fails the case (it cannot pass whatever the others say); otherwise
any error makes it an error (not fully graded: neither a pass nor the agent's failure); otherwise
any unknown leaves it unknown. A case whose session produced no answer is an error before any
grader runs; the case runner decides that, so a runtime failure never turns into a fail here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from copilot_eval.evalsets import CaseStatus
from copilot_eval.grading.protocol import Grade

#: Which status wins when several are combined, strongest first; PASS only when none of these is present.
STATUS_PRECEDENCE: tuple[CaseStatus, ...] = (CaseStatus.FAIL, CaseStatus.ERROR, CaseStatus.UNKNOWN)


def combined_status(statuses: Iterable[CaseStatus]) -> CaseStatus:
    """The one status of several (grades of a case, or the cases of a conversation): the same precedence everywhere."""
    present = set(statuses)
    return next((status for status in STATUS_PRECEDENCE if status in present), CaseStatus.PASS)


def combine_grades(grades: Sequence[Grade]) -> tuple[CaseStatus, str | None]:
    """The case status and, unless it passed, the reason of the first grade that decided it."""
    if not grades:
        return CaseStatus.UNKNOWN, "no grader ran"
    for status in STATUS_PRECEDENCE:
        deciding = [grade for grade in grades if grade.status is status]
        if deciding:
            return status, "; ".join(f"{g.method}: {g.reason}" for g in deciding)
    return CaseStatus.PASS, None


__all__ = ["STATUS_PRECEDENCE", "combine_grades", "combined_status"]
