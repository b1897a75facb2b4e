"""Each case graded by the method and pass mark its own row names; rows naming none by the run's graders."""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import CaseStatus, EvalTestCase, EvalTestSet
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.turn import Turn
from copilot_eval.grading.combine import grade_case
from copilot_eval.grading.protocol import CaseEvidence
from copilot_eval.grading.row_methods import RowMethods
from copilot_eval.grading.similarity import TextSimilarity
from copilot_eval.runs.prepare import PrepareError, check_graders_fit, graders_for_set


def _answered(text: str) -> CaseEvidence:
    result = CopilotResult(
        success=True,
        stop_reason="completed",
        turns=[Turn(role="user", content="q"), Turn(role="assistant", content=text)],
    )
    return CaseEvidence(answer=text, result=result)


def _case(number: int, response: str, method: str | None, mark: float | None = None) -> EvalTestCase:
    return EvalTestCase(
        conversation_number=number, question="q", response=response, testing_method=method, passing_score=mark
    )


async def test_each_row_gets_its_own_method_and_pass_mark():
    graders = RowMethods([TextSimilarity(0.9)])
    exact = await grade_case(_case(1, "0800 123", "ExactMatch"), _answered("0800 123"), [graders])
    assert [(g.method, g.status) for g in exact.grades] == [("Exact match", CaseStatus.PASS)]
    # The same answer and reference at two pass marks: the row's own mark decides.
    answer = _answered("Twenty days of leave each year")
    low = await grade_case(_case(2, "Twenty days of leave a year", "TextSimilarity", 50), answer, [graders])
    high = await grade_case(_case(3, "Twenty days of leave a year", "TextSimilarity", 99), answer, [graders])
    assert (low.status, low.grades[0].passing_score) == (CaseStatus.PASS, 50.0)
    assert (high.status, high.grades[0].passing_score) == (CaseStatus.FAIL, 99.0)


async def test_keywords_come_from_the_rows_expected_response():
    graders = RowMethods([])
    found = await grade_case(_case(1, "parking, garage", "KeywordMatch"), _answered("Use the garage."), [graders])
    assert found.status is CaseStatus.PASS
    every = await grade_case(_case(2, "parking, garage", "AllKeywordMatch"), _answered("Use the garage."), [graders])
    assert every.status is CaseStatus.FAIL
    empty = await grade_case(_case(3, "", "KeywordMatch"), _answered("Use the garage."), [graders])
    assert empty.status is CaseStatus.ERROR and "names no keywords" in empty.reason


async def test_a_row_without_a_method_is_graded_by_the_runs_graders():
    verdict = await grade_case(_case(1, "Ask IT.", None), _answered("Ask IT."), [RowMethods([TextSimilarity(0.5)])])
    assert [g.method for g in verdict.grades] == ["Text similarity"]


def test_a_judges_method_without_a_judge_is_refused_before_the_run():
    test_set = EvalTestSet(
        name="ess",
        cases=[_case(1, "a", "CompareMeaning", 70), _case(2, "b", "CompareMeaning", 70), _case(3, "c", "ExactMatch")],
    )
    graders = graders_for_set(test_set, [TextSimilarity()])
    with pytest.raises(PrepareError) as refused:
        check_graders_fit(test_set, graders, "ess.csv")
    assert "2 cases (1, 2) name CompareMeaning, an LLM judge's method: give a judge agent file with --judge" in str(
        refused.value
    )


def test_a_set_without_methods_keeps_the_runs_graders():
    test_set = EvalTestSet(name="plain", cases=[_case(1, "a", None)])
    defaults = [TextSimilarity()]
    assert graders_for_set(test_set, defaults) == defaults
