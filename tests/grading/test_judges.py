"""LLM judges through the real runtime, with a ScriptedModel as the judge's model."""

from __future__ import annotations

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.turn import Turn
from copilot_eval.grading import CaseEvidence, CompareMeaning, GeneralQuality, LabelClassifier, parse_judge_answer
from copilot_eval.models.scripted import ScriptedModel

CASE = EvalTestCase(conversation_number=1, question="Deposit?", response="A 150 euro deposit per bike.")

JUDGE = CopilotEval(
    name="judge",
    timeout_s=30,
    model=ScriptedModel.from_dict(
        {
            "rules": [
                {
                    "when": {"prompt_contains": "GOODANSWER"},
                    "turns": [{"text": '{"score": 90, "reason": "same facts"}'}],
                },
                {
                    "when": {"prompt_contains": "BADANSWER"},
                    "turns": [{"text": '```json\n{"score": 10, "reason": "contradicts"}\n```'}],
                },
                {
                    "when": {"prompt_contains": "QUALITY"},
                    "turns": [
                        {
                            "text": '{"relevance": 4, "completeness": 3, "abstention": true, '
                            '"reason": "says it cannot find the price"}'
                        }
                    ],
                },
                {
                    "when": {"prompt_contains": "LABELME"},
                    "turns": [{"text": '{"label": "polite", "reason": "courteous"}'}],
                },
                {"turns": [{"text": "I think it is fine."}]},
            ]
        }
    ),
)


def evidence(text: str, tmp_path) -> CaseEvidence:
    result = CopilotResult(success=True, turns=[Turn(role="user", content="q"), Turn(role="assistant", content=text)])
    return CaseEvidence(answer=text, result=result, evidence_path=str(tmp_path / "case1-r0.json"))


@pytest.mark.runtime
async def test_compare_meaning_pass_fail_and_unreadable_is_error(tmp_path):
    grader = CompareMeaning(JUDGE)
    good = await grader.grade(CASE, evidence("GOODANSWER", tmp_path))
    assert (good.status, good.score, good.passing_score) == (CaseStatus.PASS, 90.0, 50.0)
    assert "same facts" in good.reason
    assert CopilotResult.load(good.evidence_path).final_response.startswith('{"score": 90')
    bad = await grader.grade(CASE, evidence("BADANSWER", tmp_path))
    assert bad.status is CaseStatus.FAIL and "contradicts" in bad.reason
    unreadable = await grader.grade(CASE, evidence("something else", tmp_path))
    assert unreadable.status is CaseStatus.ERROR and "unreadable judge answer" in unreadable.reason


@pytest.mark.runtime
async def test_general_quality_fails_an_answer_that_abstains_and_keeps_its_parts(tmp_path):
    grade = await GeneralQuality(JUDGE).grade(CASE, evidence("QUALITY", tmp_path))
    assert grade.status is CaseStatus.FAIL and "the answer abstains" in grade.reason and grade.score == 66.67
    assert grade.data is not None and (grade.data["abstention"], grade.data["relevance"]) == ("Yes", "Yes")


@pytest.mark.runtime
async def test_labels_map_to_pass_or_fail_and_unknown_label_is_error(tmp_path):
    assert (
        await LabelClassifier(JUDGE, {"polite": True, "rude": False}).grade(CASE, evidence("LABELME", tmp_path))
    ).status is CaseStatus.PASS
    assert (
        await LabelClassifier(JUDGE, {"polite": False, "fine": True}).grade(CASE, evidence("LABELME", tmp_path))
    ).status is CaseStatus.FAIL
    assert (
        await LabelClassifier(JUDGE, {"kind": True}).grade(CASE, evidence("LABELME", tmp_path))
    ).status is CaseStatus.ERROR


@pytest.mark.runtime
async def test_judge_whose_model_fails_is_an_error_not_a_fail(tmp_path):
    broken = CopilotEval(
        name="judge",
        timeout_s=2,
        model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "late", "delay_s": 5}]}]}),
    )
    grade = await CompareMeaning(broken).grade(CASE, evidence("GOODANSWER", tmp_path))
    assert grade.status is CaseStatus.ERROR and "judge call failed" in grade.reason


def test_parse_judge_answer():
    assert parse_judge_answer('Sure. {"score": 3} done') == {"score": 3}
    assert parse_judge_answer("no json") is None and parse_judge_answer(None) is None
