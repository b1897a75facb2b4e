"""General quality's two-stage rule at each boundary, the judge's answer read, and the knowledge context found.

The rule's numbers are the published Quality Grader's (relevance above 2.5, completeness above 1.5;
with knowledge context also groundedness above 2.5 and context coverage above 1.5); "NA" is never a
pass. These run without the runtime: the judge's JSON is fed to the grader directly.
"""

from __future__ import annotations

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalTestCase, GradeRecord
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.grading import GeneralQuality
from copilot_eval.grading.knowledge_context import knowledge_context
from copilot_eval.grading.protocol import CaseEvidence
from copilot_eval.grading.quality_rule import (
    COMPLETENESS_FLOOR,
    CONTEXT_COVERAGE_FLOOR,
    GROUNDEDNESS_FLOOR,
    RELEVANCE_FLOOR,
    QualityScores,
    quality_verdict,
)
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.targets.evidence import Citation, TargetResult, TargetTurn

S = CaseStatus
GOOD = {"relevance": 4, "completeness": 3, "abstention": False}
GROUNDED = {**GOOD, "groundedness": 5, "context_coverage": 3}


def _rule(with_context: bool = False, **scores: object) -> tuple[CaseStatus, dict[str, str]]:
    verdict = quality_verdict(QualityScores(with_context=with_context, **scores))  # type: ignore[arg-type]
    return verdict.status, verdict.parts


def test_the_thresholds_are_the_published_ones():
    assert (RELEVANCE_FLOOR, COMPLETENESS_FLOOR, GROUNDEDNESS_FLOOR, CONTEXT_COVERAGE_FLOOR) == (2.5, 1.5, 2.5, 1.5)


@pytest.mark.parametrize(
    ("part", "at_floor", "above"),
    [("relevance", 2.5, 2.6), ("completeness", 1.5, 1.6)],
)
def test_stage_one_fails_at_its_floor_and_passes_just_above(part, at_floor, above):
    assert _rule(**{**GOOD, part: at_floor})[0] is S.FAIL
    assert _rule(**{**GOOD, part: above})[0] is S.PASS
    # the same with knowledge context: stage 1 still decides first
    assert _rule(True, **{**GROUNDED, part: at_floor})[0] is S.FAIL


@pytest.mark.parametrize(
    ("part", "at_floor", "above"),
    [("groundedness", 2.5, 2.6), ("context_coverage", 1.5, 1.6)],
)
def test_stage_two_applies_only_with_knowledge_context(part, at_floor, above):
    assert _rule(True, **{**GROUNDED, part: at_floor})[0] is S.FAIL
    assert _rule(True, **{**GROUNDED, part: above})[0] is S.PASS
    status, parts = _rule(False, **{**GROUNDED, part: at_floor})
    assert status is S.PASS  # without context stage 2 does not apply ...
    assert parts["groundedness"] == parts["contextCoverage"] == "NA"  # ... and says so


def test_an_abstaining_answer_fails_whatever_its_scores():
    status, parts = _rule(**{**GOOD, "abstention": True})
    assert status is S.FAIL and parts["abstention"] == "Yes"
    status, parts = _rule(**{**GOOD, "abstention": None})  # nothing to decline: it fails nothing
    assert status is S.PASS and parts["abstention"] == "NA"


def test_na_is_not_a_pass():
    assert _rule(**{**GOOD, "relevance": None}) == (
        S.UNKNOWN,
        {"relevance": "NA", "completeness": "Yes", "groundedness": "NA", "contextCoverage": "NA", "abstention": "No"},
    )
    assert _rule(True, **{**GROUNDED, "groundedness": None})[0] is S.UNKNOWN
    # a part that fails decides over one left unjudged
    assert _rule(True, **{**GROUNDED, "groundedness": None, "completeness": 1})[0] is S.FAIL


def test_the_parts_carry_the_platforms_names():
    verdict = quality_verdict(QualityScores(relevance=2, completeness=3, abstention=False, with_context=False))
    assert list(verdict.parts) == ["relevance", "completeness", "groundedness", "contextCoverage", "abstention"]
    assert verdict.failed == ["relevance 2 (must be above 2.5)"] and verdict.score == 66.67


JUDGE = CopilotEval(name="judge", model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "{}"}]}]}))
CASE = EvalTestCase(conversation_number=1, question="How many leave days?")


def _runtime_evidence() -> CaseEvidence:
    return CaseEvidence(answer="Twenty.", result=CopilotResult(success=True))


def _studio_evidence(**turn: object) -> CaseEvidence:
    result = TargetResult(target_type="directline", success=True, turns=[TargetTurn(prompt="q", answer="a", **turn)])
    return CaseEvidence(answer="a", result=result)  # type: ignore[arg-type]


def test_the_judges_answer_becomes_the_grade_and_its_parts():
    grade = GeneralQuality(JUDGE).verdict_for(
        CASE, _runtime_evidence(), {"relevance": "4", "completeness": 1, "abstention": "false", "reason": "thin"}
    )
    assert grade is not None and grade.status is S.FAIL
    assert grade.reason == "not met: completeness 1 (must be above 1.5): thin"
    assert grade.data == {
        "relevance": "Yes",
        "completeness": "No",
        "groundedness": "NA",
        "contextCoverage": "NA",
        "abstention": "No",
        "relevanceScore": 4.0,
        "completenessScore": 1.0,
    }
    assert grade.to_record().data == grade.data  # what run.json keeps


@pytest.mark.parametrize(
    "answer",
    [
        {"completeness": 3, "abstention": False},  # a part missing
        {"relevance": 9, "completeness": 3, "abstention": False},  # off its scale
        {"relevance": 4, "completeness": 3, "abstention": "maybe"},
        {"relevance": True, "completeness": 3, "abstention": False},
    ],
)
def test_an_answer_without_the_parts_is_unreadable(answer):
    assert GeneralQuality(JUDGE).verdict_for(CASE, _runtime_evidence(), answer) is None  # an error grade, never a fail


def test_with_knowledge_context_the_judge_must_score_groundedness():
    evidence = _studio_evidence(citations=[Citation(position="1", title="Leave policy", abstract="Twenty days.")])
    judge = GeneralQuality(JUDGE)
    assert judge.verdict_for(CASE, evidence, {**GOOD}) is None  # groundedness and coverage were asked for
    grade = judge.verdict_for(CASE, evidence, {**GOOD, "groundedness": 2, "contextCoverage": 3})
    assert grade is not None and grade.status is S.FAIL and grade.data["groundedness"] == "No"
    assert grade.data["knowledgeContext"] == "citations"
    prompt = judge.template.safe_substitute(judge.prompt_fields(CASE, evidence))
    assert "[1] Leave policy: Twenty days." in prompt and '"contextCoverage"' in prompt
    plain = judge.template.safe_substitute(judge.prompt_fields(CASE, _runtime_evidence()))
    assert "groundedness" not in plain and "$" not in plain


def test_where_knowledge_context_comes_from():
    assert knowledge_context(_runtime_evidence()) is None
    assert knowledge_context(_studio_evidence()) is None
    cited = knowledge_context(_studio_evidence(citations=[Citation(position="1", url="https://hr/leave")]))
    assert cited is not None and cited.sources == ["citations"] and cited.passages == ["(https://hr/leave)"]
    search = {
        "type": "event",
        "valueType": "UniversalSearchToolTraceData",
        "value": {"knowledgeSources": ["hr.leave"], "fullResults": [{"name": "leave.pdf", "text": "Twenty days."}]},
    }
    searched = knowledge_context(_studio_evidence(activities=[search]))
    assert searched is not None and searched.passages == ["leave.pdf: Twenty days."]
    platform = GradeRecord(
        method="GeneralQuality", status=S.PASS, data={"relevance": "Yes", "groundedness": "No", "abstention": "No"}
    )
    judged = knowledge_context(
        CaseEvidence(answer="a", result=CopilotResult(success=True), recorded_grades=(platform,))
    )
    assert judged is not None and judged.sources == ["platform"] and judged.passages == []
    not_applicable = platform.model_copy(update={"data": {"relevance": "Yes", "groundedness": "NA"}})
    assert (
        knowledge_context(
            CaseEvidence(answer="a", result=CopilotResult(success=True), recorded_grades=(not_applicable,))
        )
        is None
    )
