"""write_results_csv: Copilot Studio's export columns, one group per grader, errors not failures."""

from __future__ import annotations

import csv

import pytest

from copilot_eval.evalsets import (
    EvalCaseResult,
    EvalRun,
    EvalSetWriteError,
    EvalTestCase,
    EvalTestSet,
    GradeRecord,
)
from copilot_eval.reports.results_csv import write_results_csv


@pytest.fixture
def test_set() -> EvalTestSet:
    return EvalTestSet(
        name="bikes",
        cases=[
            EvalTestCase(conversation_number=1, question="Open on Sunday?", response="Yes, 8 to 19."),
            EvalTestCase(conversation_number=2, question="Deposit?", response="150 euros."),
            EvalTestCase(conversation_number=3, question="Helmets?", response="Included."),
        ],
    )


def _read(path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_one_column_group_per_grader(tmp_path, test_set):
    run = EvalRun(
        test_set_name="bikes",
        general_quality_percent=50,
        passed=1,
        failed=1,
        errored=1,
        results=[
            EvalCaseResult(
                conversation_number=1,
                passed=True,
                actual_response="Yes, from 8 to 19.",
                grades=[
                    GradeRecord(
                        method="Compare meaning", status="pass", score=92, passing_score=50, explanation="same"
                    ),
                    GradeRecord(method="Exact match", status="fail", explanation="differs"),
                ],
            ),
            EvalCaseResult(
                conversation_number=2,
                passed=False,
                actual_response="100 euros.",
                grades=[GradeRecord(method="Compare meaning", status="fail", passing_score=50.5)],
            ),
            EvalCaseResult(conversation_number=3, passed=False, status="error", failure_reason="HTTP 500"),
        ],
    )
    path = tmp_path / "results.csv"
    write_results_csv(run, test_set, path)
    rows = _read(path)
    assert rows[0] == [
        "question",
        "expectedResponse",
        "actualResponse",
        "testMethodType_1",
        "result_1",
        "passingScore_1",
        "explanation_1",
        "testMethodType_2",
        "result_2",
        "passingScore_2",
        "explanation_2",
    ]
    assert rows[1] == [
        "Open on Sunday?",
        "Yes, 8 to 19.",
        "Yes, from 8 to 19.",
        "Compare meaning",
        "Pass",
        "50",
        "same",
        "Exact match",
        "Fail",
        "",
        "differs",
    ]
    assert rows[2] == ["Deposit?", "150 euros.", "100 euros.", "Compare meaning", "Fail", "50.5", "", "", "", "", ""]
    # No grader detail: the case's own outcome, and the reason, still show.
    assert rows[3] == ["Helmets?", "Included.", "", "", "Error", "", "HTTP 500", "", "", "", ""]


def test_run_without_results_writes_only_the_header(tmp_path, test_set):
    path = tmp_path / "results.csv"
    write_results_csv(EvalRun(test_set_name="bikes", general_quality_percent=0, passed=0, failed=6), test_set, path)
    assert _read(path) == [
        [
            "question",
            "expectedResponse",
            "actualResponse",
            "testMethodType_1",
            "result_1",
            "passingScore_1",
            "explanation_1",
        ]
    ]


def test_result_without_a_case_is_refused_and_nothing_written(tmp_path, test_set):
    run = EvalRun(
        test_set_name="bikes",
        general_quality_percent=0,
        passed=0,
        failed=1,
        results=[EvalCaseResult(conversation_number=9, passed=False)],
    )
    path = tmp_path / "results.csv"
    with pytest.raises(EvalSetWriteError) as caught:
        write_results_csv(run, test_set, path)
    assert caught.value.problems == ["result for conversationNumber 9 has no case in test set 'bikes'"]
    assert caught.value.path == path
    assert not path.exists()
