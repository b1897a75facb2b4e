"""The one grading step: an unanswered case is an error before any grader runs, else combine_grades decides."""

from __future__ import annotations

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.turn import Turn
from copilot_eval.grading.combine import grade_case
from copilot_eval.grading.protocol import CaseEvidence, Grade

CASE = EvalTestCase(conversation_number=1, question="Deposit?", response="A 150 euro deposit per bike.")
ANSWERED = CaseEvidence(
    answer="150 euros per bike.",
    result=CopilotResult(
        success=True,
        stop_reason="completed",
        turns=[Turn(role="user", content="Deposit?"), Turn(role="assistant", content="150 euros per bike.")],
    ),
)
UNANSWERED = CaseEvidence(
    answer=None,
    result=CopilotResult(
        success=False,
        stop_reason="execution_error",
        error="500 Internal (HTTP 500)",
        turns=[Turn(role="user", content="Deposit?")],
    ),
)


class Fixed:
    """A grader that gives one status (or raises) and remembers that it was asked."""

    def __init__(self, status: CaseStatus | None, name: str = "fixed") -> None:
        self.status, self.name, self.asked = status, name, 0

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        self.asked += 1
        if self.status is None:
            raise RuntimeError("judge endpoint vanished")
        return Grade(self.name, self.status, f"said {self.status.value}")


async def test_an_unanswered_case_is_an_error_and_no_grader_is_asked() -> None:
    # A grader that would fail anything must not turn a platform failure into the agent's failure.
    graders = [Fixed(CaseStatus.FAIL), Fixed(CaseStatus.PASS)]
    verdict = await grade_case(CASE, UNANSWERED, graders)
    assert (verdict.status, verdict.reason, verdict.grades) == (
        CaseStatus.ERROR,
        "execution_error: 500 Internal (HTTP 500)",
        [],
    )
    assert [g.asked for g in graders] == [0, 0]


async def test_an_answered_case_is_what_the_graders_combine_to() -> None:
    verdict = await grade_case(CASE, ANSWERED, [Fixed(CaseStatus.PASS, "a"), Fixed(CaseStatus.FAIL, "b")])
    assert (verdict.status, verdict.reason) == (CaseStatus.FAIL, "b: said fail")
    assert [g.method for g in verdict.grades] == ["a", "b"]
    passed = await grade_case(CASE, ANSWERED, [Fixed(CaseStatus.PASS, "a")])
    assert (passed.status, passed.reason) == (CaseStatus.PASS, None)


async def test_a_grader_that_raises_is_an_error_grade_and_the_others_still_grade() -> None:
    second = Fixed(CaseStatus.PASS, "b")
    verdict = await grade_case(CASE, ANSWERED, [Fixed(None, "a"), second])
    assert verdict.status is CaseStatus.ERROR
    assert verdict.reason == "a: grader crashed: RuntimeError: judge endpoint vanished"
    assert second.asked == 1 and [g.status for g in verdict.grades] == [CaseStatus.ERROR, CaseStatus.PASS]
