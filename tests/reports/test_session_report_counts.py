"""The pytest session report counts the sessions test-set items played as agent runs."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase
from copilot_eval.evidence import CopilotResult
from copilot_eval.reports.html_session import agent_runs, session_report_html
from copilot_eval.reports.pytest_report import SessionReport


def _case(number: int, turn: int, status: CaseStatus, path: str | None):
    case = EvalTestCase(conversation_number=number, question=f"q{number}.{turn}", response="r")
    passed = status is CaseStatus.PASS
    result = EvalCaseResult(conversation_number=number, turn=turn, passed=passed, status=status, evidence_path=path)
    return case, result


def test_test_set_items_count_their_sessions_as_agent_runs(tmp_path: Path):
    report = SessionReport(tmp_path / "report.html")
    # A two-turn conversation (one session), a one-turn case saved nowhere, and a case never played.
    first, second = _case(1, 1, CaseStatus.PASS, "ev/c1.json"), _case(1, 2, CaseStatus.FAIL, "ev/c1.json")
    report.add_case_results("single.csv::conversation-1", *zip(first, second, strict=True))
    report.add_case_results("single.csv::case-2", *zip(_case(2, 1, CaseStatus.PASS, None), strict=True))
    report.add_case_results("single.csv::case-3", *zip(_case(3, 1, CaseStatus.NOT_RUN, None), strict=True))
    report.add_result("test_agent.py::test_receipt", CopilotResult(success=True), None)
    counts = [agent_runs(record) for record in report.tests.values()]
    assert counts == [1, 1, 0, 1]
    assert "4 tests · 3 agent runs" in session_report_html(report)
