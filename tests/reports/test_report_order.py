"""The run report leads with the cases, those that did not pass first; its header and limitation read cleanly."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from copilot_eval.evalsets import CaseStatus, EvalCaseResult
from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs import detect_runtime_limitation
from tests.reports.report_fixtures import build_run_folder


def test_cases_come_first_with_the_failed_ahead_and_the_header_keeps_to_seconds(tmp_path):
    build_run_folder(tmp_path)
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    data["runAt"] = datetime(2026, 1, 2, 9, 30, 5, 123456, tzinfo=UTC).isoformat()
    (tmp_path / "run.json").write_text(json.dumps(data), encoding="utf-8")
    html = run_report_html(read_run_folder(tmp_path))
    assert html.index("<h2>Cases</h2>") < html.index("<h2>Charts</h2>")
    anchors = re.findall(r'id="(case-\d+-r\d+)"', html)
    # case 2 (failed), 3 (error) and 1 again (failed) before the two that passed
    assert anchors == ["case-2-r0", "case-3-r0", "case-1-r1", "case-1-r0", "case-4-r0"]
    assert "run at 2026-01-02 09:30:05 UTC" in html and "123456" not in html


def test_a_limitations_evidence_is_cut_between_words():
    answer = "Sorry, something went wrong while we were looking that up for you, please try again in a few minutes"
    results = [
        EvalCaseResult(conversation_number=n, passed=False, status=CaseStatus.FAIL, actual_response=answer)
        for n in (1, 2)
    ]
    found = detect_runtime_limitation(results)
    assert found is not None
    cited = found.evidence[0].split("answer ", 1)[1].strip("'\"")
    assert cited.endswith("…") and answer.startswith(cited.removesuffix("…"))
    assert answer[len(cited.removesuffix("…"))] in " ,"  # the next character starts a new word
