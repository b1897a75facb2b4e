"""A judge grading both arms is never told the arm: its prompt for one answer is the same whichever arm gave it."""

from __future__ import annotations

from pathlib import Path

from copilot_eval import CopilotEval, CopilotResult
from copilot_eval.evalsets.model import EvalTestCase
from copilot_eval.grading.compare_meaning import CompareMeaning
from copilot_eval.grading.general_quality import GeneralQuality
from copilot_eval.grading.protocol import CaseEvidence


def _evidence(arm: str, answer: str) -> CaseEvidence:
    """What a play of ``arm`` hands the graders: its session (instructions, skills) and its evidence file."""
    result = CopilotResult(
        success=True,
        prompt="Is release one out?",
        configuration={"instructions": f"You are the {arm} arm", "skill_directories": [f"/tmp/{arm}/skills"]},
    )
    return CaseEvidence(answer=answer, result=result, evidence_path=f"lift-runs/x/{arm}/evidence/case1-r0.json")


def test_the_judge_prompt_holds_the_question_reference_and_answer_only(tmp_path: Path) -> None:
    case = EvalTestCase(conversation_number=1, question="Is release one out?", response="Yes, it shipped.")
    judge = CopilotEval(name="judge")
    for grader in (CompareMeaning(judge), GeneralQuality(judge)):
        with_arm = grader.prompt_text(case, _evidence("ARM-WITH-SKILL", "It shipped on Monday."))
        without_arm = grader.prompt_text(case, _evidence("ARM-WITHOUT-SKILL", "It shipped on Monday."))
        assert with_arm == without_arm
        assert "ARM-" not in with_arm and "It shipped on Monday." in with_arm
