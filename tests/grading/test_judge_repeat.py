"""An LLM judge asked several times per answer: the repeat is the judge's own, its votes a pure tally.

The judge's session is replaced by a list of answers (``ask`` overridden), so these run without
the runtime; the runtime path is proven in tests/runs/test_repeat_verdicts.py.
"""

from __future__ import annotations

import ast
import inspect

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.turn import Turn
from copilot_eval.grading import CompareMeaning, GeneralQuality, LabelClassifier, judge_votes
from copilot_eval.grading.judge_votes import JudgeCall
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.grading.spec import GraderSpecError, parse_grader_spec
from copilot_eval.models.scripted import ScriptedModel

CASE = EvalTestCase(conversation_number=1, question="Deposit?", response="A 150 euro deposit per bike.")
ANSWERED = CaseEvidence(
    answer="150 euros",
    result=CopilotResult(success=True, turns=[Turn(role="user", content="q"), Turn(role="assistant", content="a")]),
)
JUDGE = CopilotEval(name="judge", model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "{}"}]}]}))


class ScoredJudge(CompareMeaning):
    """Compare meaning whose calls answer the given scores in turn, without a session."""

    def __init__(self, scores: list[float | None], **options: object) -> None:
        super().__init__(JUDGE, **options)  # type: ignore[arg-type]
        self.scores, self.attempts = list(scores), []

    async def ask(self, case: EvalTestCase, evidence: CaseEvidence, *, attempt: int = 1) -> JudgeCall:
        self.attempts.append(attempt)
        score = self.scores[attempt - 1]
        if score is None:
            return JudgeCall(Grade(self.name, CaseStatus.ERROR, "unreadable judge answer: 'hm'"), None)
        grade = self.verdict({"score": score, "reason": f"call {attempt}"})
        assert grade is not None
        return JudgeCall(grade, None)


async def test_a_judge_asked_three_times_grades_by_the_majority_of_its_calls():
    judge = ScoredJudge([90, 10, 80], repeat=3)
    grade = await judge.grade(CASE, ANSWERED)
    assert sorted(judge.attempts) == [1, 2, 3]  # each call its own attempt, so its own evidence file
    assert grade.status is CaseStatus.PASS and grade.score == 60.0
    assert grade.judge is not None and grade.judge.calls == 3 and grade.judge.unstable
    assert grade.reason.startswith("2 of 3 judge calls pass (the judge is unstable on this answer)")


async def test_an_even_split_is_unknown_and_a_silent_call_is_counted_not_voted():
    grade = await ScoredJudge([90, 10, None, None], repeat=4).grade(CASE, ANSWERED)
    assert grade.status is CaseStatus.UNKNOWN
    assert "2 of 4 gave no verdict" in grade.reason
    assert grade.judge is not None and grade.judge.calls == 4


async def test_one_call_is_the_default_and_keeps_that_calls_own_grade():
    judge = ScoredJudge([40])
    grade = await judge.grade(CASE, ANSWERED)
    assert judge.attempts == [1]
    assert (grade.status, grade.score, grade.reason) == (CaseStatus.FAIL, 40.0, "meaning score 40: call 1")


async def test_an_unanswered_case_is_an_error_before_any_judge_call():
    judge = ScoredJudge([90, 90], repeat=2)
    unanswered = CaseEvidence(answer=None, result=CopilotResult(success=False, error="boom"))
    grade = await judge.grade(CASE, unanswered)
    assert grade.status is CaseStatus.ERROR and judge.attempts == []


@pytest.mark.parametrize("repeat", [0, -1, 1.5, True])
def test_a_repeat_that_is_not_a_whole_number_of_at_least_one_is_refused(repeat):
    with pytest.raises(ValueError, match="judge repeat must be a whole number of at least 1"):
        CompareMeaning(JUDGE, repeat=repeat)  # type: ignore[arg-type]


def test_every_judge_grader_takes_the_repeat_and_the_spec_hands_it_over():
    assert GeneralQuality(JUDGE, repeat=2).repeat == 2
    assert LabelClassifier(JUDGE, {"ok": True}, repeat=3).repeat == 3
    for spec in ("compare_meaning", "general_quality", "labels:ok=pass"):
        assert parse_grader_spec(spec, judge=JUDGE, judge_repeat=5).repeat == 5  # type: ignore[attr-defined]
    assert not hasattr(parse_grader_spec("exact", judge_repeat=5), "repeat")  # a judge's repeat only
    with pytest.raises(GraderSpecError, match="judge repeat must be at least 1"):
        parse_grader_spec("compare_meaning", judge=JUDGE, judge_repeat=0)


def test_the_vote_tally_imports_no_judge_not_even_for_types():
    # judge.py imports judge_votes to tally its calls; the way back would close an import circle.
    tree = ast.parse(inspect.getsource(judge_votes))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "copilot_eval.grading.judge" not in imported
    assert not hasattr(judge_votes, "RepeatedJudge")  # the repeat lives in LlmJudge, not in a second class
