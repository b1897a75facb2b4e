"""A platform run as an EvalRun: metric verdicts, case statuses, platform limitation signals, the export join."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval.evalsets import CaseStatus, Confidence, LimitationStanding, PlatformRunRecord, read_results_export
from copilot_eval.platform_runs import ExportJoinError, join_export, run_from_studio
from copilot_eval.platform_runs.studio import refused_signal
from copilot_eval.studio_eval import StudioRun
from copilot_eval.testing import case_result, metric_result, no_answer_case
from tests.studio_eval.studio_helpers import BIKE_SHOP, bike_shop_set, write_export

RECORD = PlatformRunRecord(
    source="copilot-studio-evaluation-api",
    environment_id="env",
    bot_id="bot",
    run_id="r1",
    test_set_name="nightly",
    published=False,
    state="Completed",
)


def studio_run(cases, *, state="Completed", execution="Completed") -> StudioRun:
    return StudioRun.from_json(
        {
            "id": "r1",
            "name": "nightly",
            "state": state,
            "executionState": execution,
            "startTime": "2026-12-01T02:00:05Z",
            "endTime": "2026-12-01T02:03:41Z",
            "testSetId": "s1",
            "totalTestCases": len(cases),
            "testCasesProcessed": len(cases),
            "testCasesResults": cases,
        }
    )


def test_each_metric_is_a_grade_and_cases_combine_them_with_the_one_precedence():
    scripted = bike_shop_set()
    run, test_set = run_from_studio(studio_run(scripted.cases), RECORD)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (3, 1, 0, 75.0)
    assert run.confidence is Confidence.CONFIRMED and run.runtime_limitation is None
    assert run.duration_ms == 216_000 and run.platform_run.run_id == "r1"
    third = run.results[2]
    assert [(g.method, g.status) for g in third.grades] == [
        ("GeneralQuality", CaseStatus.PASS),
        ("CompareMeaning", CaseStatus.FAIL),
    ]
    assert third.failure_reason == "CompareMeaning: Leaves out the e-bike deposit (score 45)."
    assert third.grades[0].data == {"relevance": "Yes"} and third.grades[1].data is None
    assert third.case_id == scripted.cases[2]["testCaseId"]
    assert [c.question for c in test_set.cases] == ["", "", "", ""]  # the API returns no text
    assert "no question or answer text" in run.note


def test_a_case_in_error_or_without_metrics_is_never_a_failure():
    cases = [
        case_result(metric_result("GeneralQuality", "Fail", "Off topic."), state="Error"),
        case_result(),
        case_result(metric_result("GeneralQuality", "Fail", None, error="RequestTokenLimitExceeded")),
        case_result(
            metric_result("GeneralQuality", "Pass", "Fine."),
            metric_result("CompareMeaning", "Fail", "Different.", error=None),
        ),
        case_result(
            metric_result("GeneralQuality", "Fail", "Confident but empty."),
            metric_result("CompareMeaning", "Error", None, error="AgentResponseIsNullOrEmpty"),
        ),
        case_result(metric_result("GeneralQuality", "Maybe", "Unclear.")),
        case_result(metric_result("GeneralQuality", "Pass", "Fine."), state="Running"),
    ]
    run, _ = run_from_studio(studio_run(cases), RECORD)
    statuses = [r.effective_status for r in run.results]
    assert statuses == [
        CaseStatus.ERROR,  # state Error wins over a Fail metric
        CaseStatus.ERROR,  # no metric results
        CaseStatus.ERROR,  # a platform error reason is an error, never a fail
        CaseStatus.FAIL,  # a real failure
        CaseStatus.ERROR,  # no answer reached the evaluator: the Fail judged nothing
        CaseStatus.UNKNOWN,  # an undocumented status
        CaseStatus.UNKNOWN,  # still running
    ]
    assert run.results[2].grades[0].error_reason == "RequestTokenLimitExceeded"
    assert run.results[1].failure_reason == "the platform returned no metric results for this test case"
    assert "AgentResponseIsNullOrEmpty" in run.results[4].failure_reason
    assert "unrecognised metric status 'Maybe'" in run.results[5].grades[0].explanation
    assert (run.failed, run.errored, run.not_graded) == (1, 4, 2)


def test_every_case_without_an_answer_is_a_suspected_runtime_limitation():
    run, _ = run_from_studio(studio_run([no_answer_case("GeneralQuality") for _ in range(4)]), RECORD)
    assert (run.passed, run.failed, run.errored) == (0, 0, 4)
    assert run.limitation_standing is LimitationStanding.SUSPECTED
    assert "every one of 4 test cases has AgentResponseIsNullOrEmpty" in run.runtime_limitation
    assert "4 of 4 cases ended in execution errors" in run.runtime_limitation


def test_a_failed_or_abandoned_run_and_all_cases_in_error_are_limitations():
    for state in ("Failed", "Abandoned"):
        run, _ = run_from_studio(studio_run([], state=state, execution=state), RECORD)
        assert f"the platform's run ended {state}" in run.runtime_limitation
    errored = [case_result(metric_result("GeneralQuality", "Error", None), state="Error") for _ in range(3)]
    run, _ = run_from_studio(studio_run(errored), RECORD)
    assert "all 3 test cases ended in state Error" in run.runtime_limitation


def test_a_refused_published_run_is_a_record_with_its_limitation():
    record = RECORD.model_copy(update={"run_id": None, "published": True, "http_status": 500, "state": None})
    run, test_set = run_from_studio(
        None, record, signals=[refused_signal("HTTP 500: bot version is required", published=True)]
    )
    assert run.results == [] and test_set.cases == []
    assert "HTTP 500 to the run request for the published agent" in run.runtime_limitation
    assert run.limitation_standing is LimitationStanding.SUSPECTED and run.confidence is Confidence.CONFIRMED
    assert run.agent_name.endswith("(published)")


def test_the_export_joins_by_the_ai_reasons_and_fills_text(tmp_path):
    cases = bike_shop_set().cases
    rows = read_results_export(write_export(tmp_path))
    join = join_export(studio_run(cases).results, rows, path=tmp_path / "x.csv")
    assert join.record.matched_by == "explanation" and join.record.by_explanation == 4
    run, test_set = run_from_studio(studio_run(cases), RECORD, rows=join.rows)
    assert [c.question for c in test_set.cases] == [q for q, *_ in BIKE_SHOP]
    assert run.results[2].actual_response == "Yes, 150 euros per bike."
    assert test_set.cases[2].response == "150 euros per bike, 300 for an e-bike."


def test_rows_in_another_order_are_matched_by_explanation_not_by_position(tmp_path):
    cases = studio_run(bike_shop_set().cases).results
    rows = read_results_export(write_export(tmp_path, list(reversed(BIKE_SHOP))))
    join = join_export(cases, rows, path=tmp_path / "x.csv")
    assert join.rows[1].question == "What are the opening hours?" and join.rows[4].question == "Can I bring my dog?"


def test_cases_without_reasons_are_placed_by_a_row_order_the_others_confirmed(tmp_path):
    body = bike_shop_set().cases
    body[3] = case_result(metric_result("GeneralQuality", "Pass", None))  # no AI reason to match on
    shown = [*BIKE_SHOP[:3], (BIKE_SHOP[3][0], "", BIKE_SHOP[3][2], [("GeneralQuality", "Pass", "")])]
    join = join_export(
        studio_run(body).results, read_results_export(write_export(tmp_path, shown)), path=tmp_path / "x.csv"
    )
    assert (join.record.matched_by, join.record.by_explanation, join.record.by_position) == (
        "explanation+position",
        3,
        1,
    )
    assert "matched by explanation+position" in join.lines[0]


def test_an_export_of_another_run_is_refused_saying_how_to_fix_it(tmp_path):
    cases = studio_run(bike_shop_set().cases).results
    other_run = [
        (q, r, "another answer", [(m, s, f"{reason} (another run)") for m, s, reason in metrics])
        for q, r, _, metrics in BIKE_SHOP
    ]
    rows = read_results_export(write_export(tmp_path, other_run))
    with pytest.raises(ExportJoinError) as caught:
        join_export(cases, rows, path=tmp_path / "x.csv")
    text = str(caught.value)
    assert "none of the 4 test cases matches a row by its AI reasons" in text
    assert "studio-eval get RUN_ID --export FILE" in text and "--export-match position" in text
    # asked for explicitly, by position: verdicts agree row by row, so it is joined and labelled unverified
    join = join_export(cases, rows, path=tmp_path / "x.csv", mode="position")
    assert join.record.matched_by == "position" and "not verified" in join.record.detail


def test_position_is_refused_when_counts_or_verdicts_disagree(tmp_path):
    cases = studio_run(bike_shop_set().cases).results
    with pytest.raises(ExportJoinError, match="the export has 3 rows for 4 test cases"):
        join_export(
            cases,
            read_results_export(write_export(tmp_path, BIKE_SHOP[:2] + BIKE_SHOP[3:])),
            path=Path("x.csv"),
            mode="position",
        )
    flipped = [
        *BIKE_SHOP[:2],
        (*BIKE_SHOP[2][:3], [("GeneralQuality", "Pass", "x"), ("CompareMeaning", "Pass", "y")]),
        BIKE_SHOP[3],
    ]
    with pytest.raises(ExportJoinError, match=r"line 4 \(row 3\) shows other verdicts than test case 3"):
        join_export(cases, read_results_export(write_export(tmp_path, flipped)), path=Path("x.csv"), mode="position")


def test_a_row_with_matching_reasons_but_other_verdicts_is_refused(tmp_path):
    cases = studio_run(bike_shop_set().cases).results
    changed = [
        *BIKE_SHOP[:2],
        (
            *BIKE_SHOP[2][:3],
            [("GeneralQuality", "Pass", BIKE_SHOP[2][3][0][2]), ("CompareMeaning", "Pass", BIKE_SHOP[2][3][1][2])],
        ),
        BIKE_SHOP[3],
    ]
    with pytest.raises(ExportJoinError, match="by its explanations but shows other verdicts"):
        join_export(cases, read_results_export(write_export(tmp_path, changed)), path=Path("x.csv"))


def test_a_platform_error_code_in_the_exported_answer_makes_the_case_an_error(tmp_path):
    cases = bike_shop_set().cases
    shown = [
        *BIKE_SHOP[:1],
        (BIKE_SHOP[1][0], BIKE_SHOP[1][1], "Sorry. Error code: SystemError.", BIKE_SHOP[1][3]),
        *BIKE_SHOP[2:],
    ]
    join = join_export(
        studio_run(cases).results, read_results_export(write_export(tmp_path, shown)), path=Path("x.csv")
    )
    run, _ = run_from_studio(studio_run(cases), RECORD, rows=join.rows)
    second = run.results[1]
    assert second.effective_status is CaseStatus.ERROR and second.actual_response is None
    assert second.failure_reason.startswith("platform error code SystemError in the exported answer")


def test_undocumented_tokens_and_odd_types_are_read_defensively():
    body = {
        "id": "r1",
        "state": "Paused",  # not a documented state: kept as written, the run is not finished
        "totalTestCases": "six",
        "startTime": "yesterday",
        "testCasesResults": [
            {
                "testCaseId": "c1",
                "state": "Weird",
                "metricsResults": [{"type": "NewMetric", "result": {"status": "Partial", "data": []}}],
            },
            {
                "testCaseId": "c2",
                "state": "Completed",
                "metricsResults": [{"result": {"status": "Pass", "aiResultReason": "ok"}}],
            },
            {"testCaseId": "c3", "metricsResults": "none"},
        ],
    }
    run = StudioRun.from_json(body)
    assert (run.state, run.finished, run.total_test_cases, run.start_time) == ("Paused", False, None, None)
    eval_run, _ = run_from_studio(run, RECORD)
    first, second, third = eval_run.results
    assert first.effective_status is CaseStatus.UNKNOWN and first.grades[0].method == "NewMetric"
    assert "unrecognised metric status 'Partial'" in first.grades[0].explanation and first.grades[0].data is None
    assert second.effective_status is CaseStatus.PASS and second.grades[0].method == "Unknown"
    assert third.effective_status is CaseStatus.ERROR  # no metric results: never a failure
