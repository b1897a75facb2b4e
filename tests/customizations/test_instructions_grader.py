"""`--grader instructions:FILE,...`: a case whose named instruction file never reached the model is an error, not a fail."""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence import CopilotResult, CustomizationFile
from copilot_eval.grading.combine import grade_case
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.grading.spec import GraderSpecError, parse_grader_spec

CASE = EvalTestCase(conversation_number=1, question="Tidy app.py", response="done")
FILES = [
    CustomizationFile(kind="agents-md", path="AGENTS.md", scope="repository", status="delivered"),
    CustomizationFile(
        kind="instructions",
        path=".github/instructions/python.instructions.md",
        scope="repository",
        apply_to="**/*.py",
        status="listed",
        reason="named in the system prompt for files matching '**/*.py'",
    ),
]


class StrictJudge:
    """A grader that fails every answer and counts how often it was asked."""

    name = "adherence"

    def __init__(self) -> None:
        self.asked = 0

    async def grade(self, case, evidence):
        self.asked += 1
        return Grade(self.name, CaseStatus.FAIL, "did not use type hints")


def _evidence(files):
    return CaseEvidence(answer="done", result=CopilotResult(success=True, customizations=files))


async def test_an_undelivered_file_makes_the_case_an_error_before_any_judge_is_asked():
    judge = StrictJudge()
    grader = parse_grader_spec("instructions:AGENTS.md,.github/instructions/*.instructions.md")
    verdict = await grade_case(CASE, _evidence(FILES), [grader, judge])
    assert verdict.status is CaseStatus.ERROR and judge.asked == 0
    assert "python.instructions.md (listed: named in the system prompt" in verdict.reason


async def test_when_every_named_file_arrived_the_other_graders_decide():
    judge = StrictJudge()
    verdict = await grade_case(CASE, _evidence(FILES), [parse_grader_spec("instructions:AGENTS.md"), judge])
    assert verdict.status is CaseStatus.FAIL and judge.asked == 1
    assert [(g.method, g.status) for g in verdict.grades] == [
        ("instructions", CaseStatus.PASS),
        ("adherence", CaseStatus.FAIL),
    ]


async def test_a_name_with_no_such_file_is_an_error_and_without_the_audit_it_is_unknown():
    verdict = await grade_case(CASE, _evidence(FILES), [parse_grader_spec("instructions:CLAUDE.md")])
    assert verdict.status is CaseStatus.ERROR and "CLAUDE.md (no such file)" in verdict.reason
    unaudited = await grade_case(CASE, _evidence(None), [parse_grader_spec("instructions:AGENTS.md")])
    assert unaudited.status is CaseStatus.UNKNOWN and "audit_requests" in unaudited.reason


def test_the_spec_needs_a_file():
    with pytest.raises(GraderSpecError, match="instructions:FILE,FILE"):
        parse_grader_spec("instructions:")
