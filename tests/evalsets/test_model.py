"""The models: evidence, camelCase, holding invalid data, honest run counts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalTestCase,
    EvalTestSet,
    GradeRecord,
    weakest_confidence,
)


def test_weakest_confidence_picks_the_weakest_part():
    assert weakest_confidence(Confidence.CONFIRMED, Confidence.CONFIRMED) is Confidence.CONFIRMED
    assert weakest_confidence("CONFIRMED", "SOURCE-INSPECTED") is Confidence.SOURCE_INSPECTED
    assert weakest_confidence("UNCONFIRMED", "CONFIRMED", "SOURCE-INSPECTED") is Confidence.UNCONFIRMED


def test_weakest_confidence_of_nothing_is_unconfirmed():
    assert weakest_confidence() is Confidence.UNCONFIRMED


def test_weakest_confidence_rejects_unknown_level():
    with pytest.raises(ValueError, match="'PROBABLY' is not a valid Confidence"):
        weakest_confidence("PROBABLY")


def test_model_holds_data_that_validation_must_report():
    test_set = EvalTestSet(
        name="broken",
        cases=[
            EvalTestCase(conversation_number=0, question="  ", response=""),
            EvalTestCase(conversation_number=0, question="q", response="x" * 5000),
        ],
    )
    assert len(test_set.cases) == 2


def test_camel_case_aliases_and_snake_case_names_both_work():
    case = EvalTestCase.model_validate({"conversationNumber": 3, "question": "q", "response": "r"})
    assert case.conversation_number == 3
    assert EvalTestCase(conversation_number=3, question="q", response="r") == case
    dumped = EvalTestSet(name="n", data_type=EvalDataType.SINGLE_TURN, cases=[case]).model_dump(by_alias=True)
    assert dumped["dataType"] == "SingleTurn"
    assert dumped["cases"][0]["conversationNumber"] == 3


def test_unknown_keys_are_refused_so_typos_are_not_lost():
    with pytest.raises(ValidationError, match="actualRespnse"):
        EvalCaseResult.model_validate({"conversationNumber": 1, "passed": True, "actualRespnse": "x"})


def test_case_result_status_must_agree_with_passed():
    with pytest.raises(ValidationError, match="contradicts"):
        EvalCaseResult(conversation_number=1, passed=True, status=CaseStatus.ERROR)
    ok = EvalCaseResult(conversation_number=1, passed=False, status="error")
    assert ok.effective_status is CaseStatus.ERROR
    assert EvalCaseResult(conversation_number=2, passed=False).effective_status is CaseStatus.FAIL


def _results() -> list[EvalCaseResult]:
    return [
        EvalCaseResult(conversation_number=1, passed=True),
        EvalCaseResult(conversation_number=2, passed=False, failure_reason="wrong price"),
        EvalCaseResult(conversation_number=3, passed=False, status="error", failure_reason="HTTP 500"),
        EvalCaseResult(conversation_number=4, passed=False, status="unknown"),
    ]


def test_run_keeps_errors_out_of_passed_and_failed():
    run = EvalRun(
        test_set_name="s",
        general_quality_percent=50,
        passed=1,
        failed=1,
        errored=1,
        not_graded=1,
        results=_results(),
    )
    assert (run.passed, run.failed, run.errored, run.not_graded) == (1, 1, 1, 1)


def test_run_that_counts_an_error_as_a_failure_is_refused():
    with pytest.raises(ValidationError, match="failed=2 but results hold 1"):
        EvalRun(test_set_name="s", general_quality_percent=25, passed=1, failed=2, results=_results())


def test_run_from_summary_alone_is_allowed_and_unknowns_stay_none():
    run = EvalRun(
        test_set_name="Ray Knowledge Eval - 6Q",
        general_quality_percent=0,
        passed=0,
        failed=6,
        runtime_limitation="draft answered with the fallback; published returned HTTP 500",
        confidence="CONFIRMED",
    )
    assert run.results is None and run.errored is None and run.duration_ms is None


def test_percent_outside_0_100_is_refused():
    with pytest.raises(ValidationError):
        EvalRun(test_set_name="s", general_quality_percent=101, passed=0, failed=0)


def test_grade_record_is_plain_data():
    grade = GradeRecord(method="Compare meaning", status="pass", score=0.8, passing_score=0.5)
    assert grade.model_dump(by_alias=True)["passingScore"] == 0.5
    assert grade.explanation is None
