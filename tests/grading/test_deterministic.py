"""Deterministic graders on recorded evidence: pass, fail and error paths (no model call needed)."""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence.result import CopilotResult, SubagentInvocation
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.evidence.turn import Turn
from copilot_eval.grading import (
    CapabilityUse,
    CaseEvidence,
    ExactMatch,
    GraderSpecError,
    KeywordMatch,
    Normalisation,
    TextSimilarity,
    combine_grades,
    parse_grader_spec,
)
from copilot_eval.grading.protocol import Grade

CASE = EvalTestCase(conversation_number=1, question="Deposit?", response="A 150 euro deposit per bike.")


def answered(text: str, **extra) -> CaseEvidence:
    result = CopilotResult(
        success=True,
        stop_reason="completed",
        turns=[Turn(role="user", content="Deposit?"), Turn(role="assistant", content=text)],
        **extra,
    )
    return CaseEvidence(answer=result.responses_per_prompt[0], result=result)


FAILED = CaseEvidence(
    answer=None,
    result=CopilotResult(
        success=False,
        stop_reason="execution_error",
        error="500 Internal (HTTP 500)",
        turns=[Turn(role="user", content="Deposit?")],
    ),
)


async def test_exact_forgives_case_and_spacing_by_default_but_not_when_strict():
    assert (await ExactMatch().grade(CASE, answered("a 150  EURO deposit per bike."))).status is CaseStatus.PASS
    strict = ExactMatch(Normalisation(case=False, whitespace=False))
    assert (await strict.grade(CASE, answered("a 150 euro deposit per bike."))).status is CaseStatus.FAIL
    loose = ExactMatch(Normalisation(punctuation=True))
    assert (await loose.grade(CASE, answered("A 150 euro deposit, per bike"))).status is CaseStatus.PASS


async def test_keywords_any_and_all_report_matched_terms():
    any_grade = await KeywordMatch(["deposit", "refund"], mode="any").grade(CASE, answered("The DEPOSIT is 150."))
    assert any_grade.status is CaseStatus.PASS and any_grade.details["matched"] == ["deposit"]
    all_grade = await KeywordMatch(["deposit", "refund"], mode="all").grade(CASE, answered("The deposit is 150."))
    assert all_grade.status is CaseStatus.FAIL and all_grade.details["missing"] == ["refund"]
    assert "missing ['refund']" in all_grade.reason


async def test_similarity_threshold():
    grader = TextSimilarity(0.7)
    close = await grader.grade(CASE, answered("A 150 euro deposit for each bike."))
    far = await grader.grade(CASE, answered("Sorry, I cannot help with that."))
    # Recorded on the 0-100 scale every grader uses; the pass mark 0.7 reads as 70.
    assert close.status is CaseStatus.PASS and close.score >= 70
    assert far.status is CaseStatus.FAIL and far.score < 70 and far.passing_score == 70
    assert far.reason == f"similarity {far.score:g} < pass score 70 (of 100)"
    assert TextSimilarity(70).pass_score == TextSimilarity(0.7).pass_score == 70


@pytest.mark.parametrize("grader", [ExactMatch(), KeywordMatch(["x"]), TextSimilarity()])
async def test_no_answer_empty_answer_and_empty_reference_are_errors(grader):
    assert (await grader.grade(CASE, FAILED)).status is CaseStatus.ERROR
    assert "HTTP 500" in (await grader.grade(CASE, FAILED)).reason
    assert (await grader.grade(CASE, answered("   "))).status is CaseStatus.ERROR
    blank_reference = CASE.model_copy(update={"response": " "})
    grade = await grader.grade(blank_reference, answered("x"))
    expected = CaseStatus.PASS if isinstance(grader, KeywordMatch) else CaseStatus.ERROR  # keywords need no reference
    assert grade.status is expected


async def test_capability_reads_completed_tools_skills_and_subagents():
    evidence = answered(
        "done",
        all_tool_calls=[
            ToolCall(name="lookup", success=True),
            ToolCall(name="skill", arguments={"skill": "greet"}, success=True),
            ToolCall(name="refund", success=None),
            ToolCall(name="task", call_id="t1", arguments={"agent_type": "researcher"}, success=True),
        ],
        # The runtime records a subagent the agent started with the call of its task tool.
        subagent_invocations=[SubagentInvocation(name="researcher", status="completed", parent_call_id="t1")],
    )
    ok = await CapabilityUse(tools=["lookup"], skills=["greet"], subagents=["researcher"]).grade(CASE, evidence)
    assert ok.status is CaseStatus.PASS
    missing = await CapabilityUse(tools=["lookup", "refund"]).grade(CASE, evidence)
    assert missing.status is CaseStatus.FAIL and "tool refund" in missing.reason  # started, outcome unknown
    assert (
        await CapabilityUse(tools=["lookup"]).grade(CASE, CaseEvidence(None, CopilotResult()))
    ).status is CaseStatus.ERROR


def test_combine_fail_beats_error_beats_unknown():
    def grade(status):
        return Grade("m", status, "why")

    assert combine_grades([grade(CaseStatus.PASS), grade(CaseStatus.PASS)])[0] is CaseStatus.PASS
    assert combine_grades([grade(CaseStatus.ERROR), grade(CaseStatus.FAIL)])[0] is CaseStatus.FAIL
    assert combine_grades([grade(CaseStatus.PASS), grade(CaseStatus.ERROR)])[0] is CaseStatus.ERROR
    assert combine_grades([])[0] is CaseStatus.UNKNOWN


def test_grader_specs():
    assert parse_grader_spec("keywords:all:refund,deposit").mode == "all"
    assert parse_grader_spec("keywords:refund").keywords == ("refund",)
    assert parse_grader_spec("similarity:0.5").threshold == 0.5
    assert parse_grader_spec("similarity:0.6").pass_score == parse_grader_spec("similarity:60").pass_score == 60
    assert parse_grader_spec("capability:tool:a,skill:b,c").tools == ("a", "c")
    for bad in (
        "nope",
        "similarity:x",
        "similarity:101",
        "similarity:-1",
        "keywords:all:",
        "exact:weird",
        "compare_meaning",
        "labels:a=maybe",
        "capability:widget:x",
    ):
        with pytest.raises(GraderSpecError, match="--grader"):
            parse_grader_spec(bad, judge=object() if bad.startswith("labels") else None)


def test_responses_per_prompt_splits_a_conversation():
    result = CopilotResult(
        turns=[
            Turn(role="user", content="q1"),
            Turn(role="assistant", content="thinking"),
            Turn(role="assistant", content="a1"),
            Turn(role="user", content="q2"),
            Turn(role="assistant", content=" "),
        ]
    )
    assert result.responses_per_prompt == ["a1", None]
