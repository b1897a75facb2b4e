"""General quality's parts and the rows' own methods through the real runtime, from the CSV to every view.

One `copilot-eval run` of a set in the per-row dialect (a GeneralQuality row, a CompareMeaning row
with its pass mark 70, an ExactMatch row), the agent and the judge both scripted; then the parts
are looked for where a user reads them: run.json, report.html, JUnit and the history. A second
test regrades a platform-graded run folder with our General quality and reads where it agrees.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalTestCase,
    EvalTestSet,
    GradeRecord,
    PlatformRunRecord,
)
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.runs.eval_runner import summarise
from tests.runs.runs_helpers import CLI

pytestmark = pytest.mark.runtime

AGENT_SCRIPT = """\
rules:
  - when: {prompt_contains: leave}
    turns: [{text: "GQ-GOOD: twenty days of leave a year."}]
  - when: {prompt_contains: deposit}
    turns: [{text: "CM-CLOSE: a deposit of 150 euros for each bike."}]
  - turns: [{text: "0800 123 456"}]
"""
# The judge answers in the General quality prompt's shape (and Compare meaning's). The first rule
# keys on the words the prompt uses when knowledge was retrieved but its text is not in the record.
JUDGE_SCRIPT = """\
rules:
  - when: {prompt_contains: "none of its text"}
    turns: [{text: '{"relevance": 2, "completeness": 1, "abstention": false, "groundedness": null, "contextCoverage": null, "reason": "vague"}'}]
  - when: {prompt_contains: GQ-GOOD}
    turns: [{text: '{"relevance": 4, "completeness": 3, "abstention": false, "reason": "answers the question"}'}]
  - when: {prompt_contains: CM-CLOSE}
    turns: [{text: '{"score": 80, "reason": "same deposit"}'}]
  - turns: [{text: '{"relevance": 1, "completeness": 0, "abstention": true, "reason": "declines"}'}]
"""
SET = (
    "\ufeffPrompt,Expected response ,Test Method Type,Passing Score\r\n"
    "How many days of leave do I get?,,GeneralQuality,\r\n"
    "Do I need a deposit?,A 150 euro deposit per bike.,CompareMeaning,70\r\n"
    "What is the helpdesk number?,0800 123 456,ExactMatch,\r\n"
    ",,,\r\n"
)


def _cli(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "200"},
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gq")
    (folder / "agent-script.yaml").write_text(AGENT_SCRIPT, encoding="utf-8")
    (folder / "judge-script.yaml").write_text(JUDGE_SCRIPT, encoding="utf-8")
    (folder / "agent.yaml").write_text("name: hr\nmodel: {scripted: agent-script.yaml}\ntimeout_s: 30\n")
    (folder / "judge.yaml").write_text("name: judge\nmodel: {scripted: judge-script.yaml}\ntimeout_s: 30\n")
    (folder / "ess.csv").write_bytes(SET.encode("utf-8"))
    done = _cli(
        "run", "ess.csv", "--agent", "agent.yaml", "--judge", "judge.yaml", "--out", "out",
        "--junit", "out/junit.xml", "--history", folder / "history.db", "--no-progress",
        cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return folder, done


def test_each_row_is_graded_by_its_own_method_and_pass_mark(played):
    folder, _ = played
    results = json.loads((folder / "out" / "run.json").read_text(encoding="utf-8"))["results"]
    grades = {r["conversationNumber"]: r["grades"] for r in results}
    assert [g["method"] for n in (1, 2, 3) for g in grades[n]] == ["General quality", "Compare meaning", "Exact match"]
    assert (grades[2][0]["status"], grades[2][0]["passingScore"]) == ("pass", 70.0)
    assert [r["status"] for r in results] == ["pass", "pass", "pass"]


def test_the_parts_reach_run_json_the_report_junit_and_the_history(played):
    folder, _ = played
    results = json.loads((folder / "out" / "run.json").read_text(encoding="utf-8"))["results"]
    quality = results[0]["grades"][0]
    assert quality["data"] == {
        "relevance": "Yes",
        "completeness": "Yes",
        "groundedness": "NA",
        "contextCoverage": "NA",
        "abstention": "No",
        "relevanceScore": 4.0,
        "completenessScore": 3.0,
    }
    assert "relevance: Yes" in (folder / "out" / "report.html").read_text(encoding="utf-8")
    case = ET.parse(folder / "out" / "junit.xml").getroot().find(".//testcase")
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties["general_quality.relevance"] == "Yes" and properties["general_quality.abstention"] == "No"
    with sqlite3.connect(folder / "history.db") as db:
        rows = db.execute("SELECT method, status, parts FROM case_grades ORDER BY id").fetchall()
    assert [(m, s) for m, s, _ in rows] == [
        ("General quality", "pass"),
        ("Compare meaning", "pass"),
        ("Exact match", "pass"),
    ]
    assert json.loads(rows[0][2])["completeness"] == "Yes" and rows[1][2] is None


def test_a_platform_run_regraded_with_our_general_quality_says_where_we_agree(played, tmp_path):
    folder, _ = played
    cases = [
        EvalTestCase(conversation_number=1, question="How many days of leave do I get?"),
        EvalTestCase(conversation_number=2, question="Where is the leave policy?"),
    ]
    test_set = EvalTestSet(name="ess", data_type=EvalDataType.SINGLE_TURN, cases=cases, confidence=Confidence.CONFIRMED)
    platform_data = [
        {"relevance": "Yes", "groundedness": "NA", "completeness": "Yes", "abstention": "No"},
        {"relevance": "Yes", "groundedness": "Yes", "completeness": "Yes", "abstention": "No"},
    ]
    results = [
        EvalCaseResult(
            conversation_number=n,
            passed=True,
            status=CaseStatus.PASS,
            actual_response=answer,
            grades=[GradeRecord(method="GeneralQuality", status=CaseStatus.PASS, data=data)],
        )
        for n, answer, data in zip((1, 2), ("GQ-GOOD: twenty days.", "See the intranet."), platform_data, strict=True)
    ]
    run = summarise(test_set, results, agent_name="Copilot Studio bot b1 (draft)", started=None, duration_ms=1.0)
    record = PlatformRunRecord(source="copilot-studio-evaluation-api", environment_id="e1", run_id="r1", bot_id="b1")
    write_run_outputs(run.model_copy(update={"platform_run": record}), test_set, tmp_path / "platform")
    done = _cli(
        "regrade", tmp_path / "platform", "--grader", "general_quality", "--judge", folder / "judge.yaml",
        "--out", tmp_path / "ours", cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "case 2: differs (platform pass, ours fail); relevance Yes there, No here, completeness Yes there"
        in done.stdout
    )
    assert "our General quality agrees with the platform's verdict on 1 of 2 cases (50%)" in done.stdout
    ours = json.loads((tmp_path / "ours" / "run.json").read_text(encoding="utf-8"))["results"]
    assert ours[1]["grades"][0]["data"]["knowledgeContext"] == "platform"  # stage 2 applied: the platform had knowledge
