"""A local run and a platform run set side by side part by part: compare, JUnit, and the regrade's agreement."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from copilot_eval.evalsets import CaseStatus, Confidence, EvalCaseResult, EvalRun, GradeRecord
from copilot_eval.reports.compare import compare_runs
from copilot_eval.reports.compare_views import comparison_markdown, parts_line
from copilot_eval.reports.junit import junit_xml
from copilot_eval.reports.platform_agreement import agreement_lines, is_platform_run, platform_agreement

S = CaseStatus
YES = {"relevance": "Yes", "completeness": "Yes", "groundedness": "Yes", "abstention": "No"}


def _run(method: str, rows: dict[int, tuple[CaseStatus, dict[str, str]]], **fields: object) -> EvalRun:
    results = [
        EvalCaseResult(
            conversation_number=n,
            passed=status is S.PASS,
            status=status,
            actual_response=f"answer {n}",
            grades=[GradeRecord(method=method, status=status, data=parts)],
        )
        for n, (status, parts) in rows.items()
    ]
    passed, failed = (sum(r.status is s for r in results) for s in (S.PASS, S.FAIL))
    return EvalRun(
        test_set_name="hr",
        general_quality_percent=100.0 * passed / (passed + failed),
        passed=passed,
        failed=failed,
        results=results,
        **fields,  # type: ignore[arg-type]
    )


PLATFORM = _run(
    "GeneralQuality",
    {1: (S.PASS, YES), 2: (S.PASS, YES), 3: (S.FAIL, {**YES, "groundedness": "No"})},
    confidence=Confidence.SOURCE_INSPECTED,
)
OURS = _run(
    "General quality",
    {
        1: (S.PASS, {**YES, "contextCoverage": "Yes"}),
        2: (S.FAIL, {**YES, "completeness": "No", "contextCoverage": "Yes"}),
        3: (S.FAIL, {**YES, "groundedness": "No", "contextCoverage": "No"}),
    },
)


def test_compare_sets_the_parts_side_by_side():
    comparison = compare_runs(PLATFORM, OURS)
    by_case = {c.conversation_number: c for c in comparison.changes}
    assert by_case[2].part_changes == {"completeness": ("Yes", "No")}
    assert by_case[3].part_changes == {} and by_case[3].kind == "unchanged"
    # contextCoverage is not in the platform's data: only parts both sides have are counted
    assert comparison.part_agreement() == {
        "relevance": (3, 3),
        "completeness": (2, 3),
        "groundedness": (3, 3),
        "abstention": (3, 3),
    }
    assert parts_line(comparison) == (
        "General quality part by part: relevance same on 3 of 3 cases, completeness same on 2 of 3 cases, "
        "groundedness same on 3 of 3 cases, abstention same on 3 of 3 cases"
    )
    markdown = comparison_markdown(comparison)
    assert "completeness Yes->No" in markdown and parts_line(comparison) in markdown


def test_runs_without_the_parts_compare_as_before():
    plain = _run("Text similarity", {1: (S.PASS, {})})
    assert parts_line(compare_runs(plain, plain)) is None


def test_junit_carries_each_part_of_ours_and_the_platforms():
    for run in (OURS, PLATFORM):
        case = ET.fromstring(junit_xml(run)).find(".//testcase")
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        assert properties["general_quality.relevance"] == "Yes" and properties["general_quality.abstention"] == "No"


def test_the_regrade_of_a_platform_run_says_where_we_agree():
    assert is_platform_run(PLATFORM) and not is_platform_run(OURS)
    found = platform_agreement(PLATFORM, OURS)
    assert (found.compared, found.agreed) == (3, 2)
    assert agreement_lines(found) == [
        "case 2: differs (platform pass, ours fail); completeness Yes there, No here",
        "our General quality agrees with the platform's verdict on 2 of 3 cases (67%)",
    ]
    errored = _run("General quality", {1: (S.ERROR, {}), 2: (S.FAIL, {}), 3: (S.FAIL, {})})
    assert platform_agreement(PLATFORM, errored).summary() == (
        "our General quality agrees with the platform's verdict on 1 of 2 cases (50%); "
        "1 not comparable (error or unknown on a side)"
    )
