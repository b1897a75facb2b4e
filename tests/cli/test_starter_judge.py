"""The starter's scripted judge (examples/starter, what `copilot-eval init` writes) answers every grader it names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copilot_eval.agent import load_agent_file
from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence import CopilotResult
from copilot_eval.evidence.protocol import KnowledgeSeen
from copilot_eval.grading.protocol import CaseEvidence
from copilot_eval.grading.spec import JUDGE_GRADERS, parse_grader_spec
from copilot_eval.models.scripted.script import load_script

STARTER = Path(__file__).resolve().parents[2] / "examples" / "starter"
NAMED = sorted(set(re.findall(r"--grader (\S+?)`?$", (STARTER / "judge.yaml").read_text(encoding="utf-8"), re.M)))


class _WithKnowledge(CopilotResult):
    """Evidence whose answer drew on knowledge: General quality then asks for its two extra parts."""

    def knowledge_seen(self, *, turn: int) -> KnowledgeSeen:
        return KnowledgeSeen(sources=["bank-faq"], passages=["Branches are open 9:00 to 17:00."])


def _judge_answer(prompt: str) -> str:
    """What the scripted judge answers ``prompt``: its first matching rule's first turn, as the model plays it."""
    rule = next(rule for rule in load_script(STARTER / "judge-script.yaml") if rule.matches(prompt))
    assert rule.turns[0].text is not None
    return rule.turns[0].text


def test_the_starter_judge_names_every_judge_grader():
    assert sorted({spec.partition(":")[0] for spec in NAMED}) == sorted(JUDGE_GRADERS)


@pytest.mark.parametrize("spec", NAMED)
@pytest.mark.parametrize(
    "result", [CopilotResult(success=True), _WithKnowledge(success=True)], ids=["plain", "knowledge"]
)
def test_the_starter_judge_answers_each_grader_in_a_shape_it_reads(spec, result):
    judge = load_agent_file(STARTER / "judge.yaml")
    grader = parse_grader_spec(spec, judge=judge)
    case = EvalTestCase(conversation_number=1, question="What are your opening hours?", response="9:00 to 17:00.")
    evidence = CaseEvidence(answer="We open 9:00 to 17:00, Monday to Friday.", result=result)
    prompt = grader.prompt_text(case, evidence)
    grade = grader.read_answer_for(case, evidence, _judge_answer(prompt))
    assert grade is not None, f"{spec}: the grader cannot read the starter judge's answer to its prompt"
    assert grade.status is CaseStatus.PASS, grade.reason
