"""The one grading step of a case, and stacked graders combined into one case status.

``grade_case`` is the only place a case's status is decided, for every way a case is graded (a
run, a pytest test-set item, a regrade). A case whose session produced no answer for it
(``CaseEvidence.runtime_error``) is an ``error`` before any grader runs: the platform failed,
which says nothing about the agent, and a judge is not paid to look at nothing. Otherwise every
grader grades (one that raises gives an ``error`` grade) and ``combine_grades`` decides: a
definite fail by any grader fails the case (it cannot pass whatever the others say); otherwise
any error makes it an error (not fully graded: neither a pass nor the agent's failure);
otherwise any unknown leaves it unknown. Nothing changes the status afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.grading.protocol import CaseEvidence, Grade, Grader

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


@dataclass(frozen=True)
class CaseVerdict:
    """What grading decided about one case: its status, the reason unless it passed, and the grades given."""

    status: CaseStatus
    reason: str | None
    grades: list[Grade] = field(default_factory=list)


async def _grade_one(grader: Grader, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
    # A grader that raises must not lose the run's other verdicts: its crash is its own error grade.
    try:
        return await grader.grade(case, evidence)
    except Exception as exc:
        method = getattr(grader, "name", type(grader).__name__)
        return Grade(method, CaseStatus.ERROR, f"grader crashed: {type(exc).__name__}: {exc}")


def graders_for(case: EvalTestCase, graders: Sequence[Grader]) -> list[Grader]:
    """The graders of one case: a grader that chooses per case (``graders_for``, a row's own method) gives its own."""
    chosen: list[Grader] = []
    for grader in graders:
        per_case = getattr(grader, "graders_for", None)
        chosen += per_case(case) if callable(per_case) else [grader]
    return chosen


async def grade_case(case: EvalTestCase, evidence: CaseEvidence, graders: Sequence[Grader]) -> CaseVerdict:
    """Grade one case: ``error`` without running a grader when the session gave no answer, else the graders' combined verdict."""
    if (problem := evidence.runtime_error) is not None:
        return CaseVerdict(CaseStatus.ERROR, problem)
    grades = [await _grade_one(grader, case, evidence) for grader in graders_for(case, graders)]
    status, reason = combine_grades(grades)
    return CaseVerdict(status, reason, grades)


__all__ = ["STATUS_PRECEDENCE", "CaseVerdict", "combine_grades", "combined_status", "grade_case", "graders_for"]
