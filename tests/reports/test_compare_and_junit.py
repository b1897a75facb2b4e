"""Run versus run, and JUnit XML: every status change is named, errors are never agent failures."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalRun, GradeRecord
from copilot_eval.reports.compare import compare_runs
from copilot_eval.reports.compare_views import comparison_html, comparison_markdown
from copilot_eval.reports.junit import junit_xml

S = CaseStatus


def _run(
    statuses: dict[int, CaseStatus], scores: dict[int, float] | None = None, limitation: str | None = None
) -> EvalRun:
    results = [
        EvalCaseResult(
            conversation_number=n,
            passed=s is S.PASS,
            status=s,
            failure_reason=None if s is S.PASS else f"case {n} {s.value}",
            grades=[GradeRecord(method="Text similarity", status=s, score=(scores or {}).get(n))],
        )
        for n, s in statuses.items()
    ]
    count = {s: sum(r.effective_status is s for r in results) for s in S}
    graded = count[S.PASS] + count[S.FAIL]
    return EvalRun(
        test_set_name="shop",
        general_quality_percent=100.0 * count[S.PASS] / graded if graded else 0,
        passed=count[S.PASS],
        failed=count[S.FAIL],
        errored=count[S.ERROR],
        not_graded=count[S.UNKNOWN],
        results=results,
        runtime_limitation=limitation,
    )


def test_each_kind_of_change_is_classified():
    before = _run({1: S.PASS, 2: S.FAIL, 3: S.FAIL, 4: S.ERROR, 5: S.PASS, 6: S.PASS, 7: S.UNKNOWN}, {1: 0.9, 5: 0.8})
    after = _run({1: S.FAIL, 2: S.PASS, 3: S.ERROR, 4: S.FAIL, 5: S.PASS, 8: S.PASS, 7: S.FAIL}, {1: 0.4, 5: 0.85})
    comparison = compare_runs(before, after, questions={(1, 1): "Where is order 1042?"})
    kinds = {change.conversation_number: change.kind for change in comparison.changes}
    assert kinds == {
        1: "regressed",
        2: "improved",
        3: "error",  # fail -> error: not graded now, neither a regression nor a pass
        4: "changed",  # error -> fail: graded only now
        5: "unchanged",
        6: "removed",
        7: "changed",
        8: "new",
    }
    by_number = {change.conversation_number: change for change in comparison.changes}
    assert (by_number[3].before, by_number[3].after) == (S.FAIL, S.ERROR)  # fail -> error is kept visible
    assert (by_number[4].before, by_number[4].after) == (S.ERROR, S.FAIL)
    assert by_number[1].score_deltas == {"Text similarity": -0.5}
    assert by_number[2].score_deltas == {}  # unknown scores give no delta, never a delta from 0
    assert comparison.counts() == {
        "regressed": 1,
        "error": 1,
        "improved": 1,
        "changed": 2,
        "new": 1,
        "removed": 1,
        "unchanged": 1,
    }
    assert comparison.score_delta == round(after.general_quality_percent - before.general_quality_percent, 2)


def test_markdown_and_html_list_changes_most_urgent_first():
    comparison = compare_runs(_run({1: S.PASS, 2: S.FAIL}), _run({1: S.FAIL, 2: S.PASS}))
    markdown = comparison_markdown(comparison)
    rows = [line for line in markdown.splitlines() if line.startswith(("| regressed", "| improved"))]
    assert rows[0].startswith("| regressed | case 1 | pass | fail") and rows[1].startswith(
        "| improved | case 2 | fail | pass"
    )
    assert "+0 points" in markdown and "1 regressed, 0 error, 1 improved" in markdown
    html = comparison_html(comparison)
    assert html.index(">regressed<") < html.index(">improved<")


def test_junit_failures_errors_and_the_limitation_property():
    run = _run({1: S.PASS, 2: S.FAIL, 3: S.ERROR, 4: S.UNKNOWN}, limitation="Suspected runtime limitation: HTTP 500")
    suite = ET.fromstring(junit_xml(run)).find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "2")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert cases["case 1"].find("failure") is None and cases["case 1"].find("error") is None
    assert cases["case 2"].find("failure").get("message") == "case 2 fail"
    assert cases["case 3"].find("failure") is None
    assert cases["case 3"].find("error").get("message") == "case 3 error (not an agent failure)"
    assert cases["case 4"].find("error").get("type") == "unknown"
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    # A limitation written the old way (its standing in the text) is read as today's fields.
    assert (properties["runtime_limitation"], properties["runtime_limitation_standing"]) == ("HTTP 500", "suspected")
    assert (properties["score_percent"], properties["graded_cases"]) == ("50", "2")


def test_a_summary_only_record_with_nothing_graded_has_no_score_while_zero_percent_stays_a_score():
    from copilot_eval.reports.markdown import run_summary_markdown
    from copilot_eval.reports.terminal import totals_line

    # Records without gradedCases (older run.json, the seed's summary-only shape) are read from
    # their counts: 0 passed and 0 failed is nothing graded; 0 passed and 6 failed is a real 0 %.
    nothing = EvalRun(test_set_name="outage", general_quality_percent=0, passed=0, failed=0, errored=3)
    raybot = EvalRun(test_set_name="Ray Knowledge Eval - 6Q", general_quality_percent=0, passed=0, failed=6)
    assert "score n/a: nothing could be graded;" in totals_line(nothing)
    assert "score 0% over 6 graded;" in totals_line(raybot)
    assert run_summary_markdown(nothing).startswith("### outage: n/a: nothing could be graded\n")
    assert run_summary_markdown(raybot).startswith("### Ray Knowledge Eval - 6Q: 0% over 6 graded\n")
    properties = {p.get("name"): p.get("value") for p in ET.fromstring(junit_xml(nothing)).iter("property")}
    assert (properties["score_percent"], properties["graded_cases"]) == ("n/a: nothing could be graded", "0")
    comparison = compare_runs(raybot, nothing)
    assert comparison.score_delta is None
    assert "score 0% -> n/a: nothing could be graded (no score to compare)" in comparison_markdown(comparison)
    assert compare_runs(raybot, raybot).score_delta == 0
