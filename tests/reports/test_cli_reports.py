"""`copilot-eval run` writes the HTML report, JUnit XML and a baseline comparison; `report` and `compare` read run folders."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html import unescape

import jsonschema
import pytest

from copilot_eval.evalsets.schema_files import load_schema
from copilot_eval.reports.run_folder import RUN_SCHEMA_VERSION
from tests.reports.real_runs import RECEIPT_ANSWER, RealRuns
from tests.runs.runs_helpers import cli_here

pytestmark = [pytest.mark.runtime, pytest.mark.slow]


# `report`, `compare` and a refused `run` read folders and print: they run in this process (cli_here);
# `run` itself plays in a process of its own, once per session (real_runs.py).
@pytest.fixture
def runs(real_runs) -> RealRuns:
    return real_runs


def test_run_writes_and_names_the_html_report(runs):
    report = runs.tools / "report.html"
    assert f"HTML report: {report}" in runs.tools_output.replace("\n", "")
    html = report.read_text(encoding="utf-8")
    text = unescape(html)
    assert RECEIPT_ANSWER in text and "create" in text and "Total: 27.50 EUR" in text and "Created file" in text
    assert "input tokens" in text and "premium requests" in text
    assert 'href="evidence/case1-r0.json"' in html and (runs.tools / "evidence" / "case1-r0.json").is_file()


def test_real_run_json_validates_against_the_shipped_schema(runs):
    for folder in (runs.tools, runs.outage):
        data = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        jsonschema.validate(data, load_schema("eval-run.schema.json"))
        assert data["schemaVersion"] == RUN_SCHEMA_VERSION
        assert all(r["evidencePath"].startswith("evidence/") for r in data["results"] if "evidencePath" in r)


def test_junit_of_a_real_run(runs):
    suite = ET.parse(runs.junit).getroot().find("testsuite")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(cases) == {"case 1", "case 2"}
    assert cases["case 1"].find("failure") is None and cases["case 2"].find("failure") is not None
    assert suite.get("failures") == "1" and suite.get("errors") == "0"


def test_a_run_in_which_nothing_could_be_graded_shows_no_score_in_any_view(runs):
    # The outage run's two cases are errors: run.json keeps the seed's number and says how many
    # cases it is over; every view says there is no score instead of showing "0 % over 0 graded".
    outage = json.loads((runs.outage / "run.json").read_text(encoding="utf-8"))
    assert (outage["generalQualityPercent"], outage["gradedCases"], outage["errored"]) == (0, 0, 2)
    tools = json.loads((runs.tools / "run.json").read_text(encoding="utf-8"))
    assert (tools["generalQualityPercent"], tools["gradedCases"]) == (50, 2)
    terminal = " ".join(runs.outage_output.split())
    assert "score n/a: nothing could be graded; 0 passed 0 failed 2 errors" in terminal
    assert "score 50% over 2 graded" in " ".join(runs.tools_output.split())
    html = unescape((runs.outage / "report.html").read_text(encoding="utf-8"))
    assert "<b>n/a: nothing could be graded</b>score" in html and "over 0 graded" not in html
    markdown = cli_here("report", runs.outage, "--html", runs.outage / "again.html", "--markdown", "-").stdout
    # No zero score anywhere ("spread 10%" in a limitation's evidence is no score: a digit before it).
    assert markdown.startswith("### shop: n/a: nothing could be graded\n")
    assert re.search(r"(?<![\d.])0(\.0+)? ?%", markdown) is None, markdown
    suite = ET.parse(runs.outage_junit).getroot().find("testsuite")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert (properties["score_percent"], properties["graded_cases"]) == ("n/a: nothing could be graded", "0")
    for view in (terminal, html, markdown):
        assert "0% over 0" not in view and "0 % over 0" not in view


def test_baseline_comparison_of_a_real_outage(runs):
    # Case 1 passed and now errors, case 2 failed and now errors: neither was graded now, so
    # neither is a regression; both are listed apart as errors (the rule gate uses too).
    assert "0 regressed, 2 error" in " ".join(runs.outage_output.split())
    markdown = (runs.outage / "comparison.md").read_text(encoding="utf-8")
    assert "| error | case 1 | pass | error |" in markdown and "| error | case 2 | fail | error |" in markdown
    assert (runs.outage / "comparison.html").is_file()
    html = (runs.outage / "report.html").read_text(encoding="utf-8")
    assert 'role="alert"' in html and "execution errors" in html  # the limitation banner


def test_compare_command_does_not_call_an_outage_a_regression(runs):
    done = cli_here("compare", runs.tools, runs.outage, "--markdown", "-", "--fail-on-regression")
    assert done.returncode == 0, done.stdout  # errors now are not graded: not a regression
    assert done.stdout.startswith("### shop: comparison with the baseline")
    # Nothing in the outage run could be graded: it has no score, so there is no delta either.
    assert "score 50% -> n/a: nothing could be graded (no score to compare)" in done.stdout
    reverse = cli_here("compare", runs.outage, runs.tools, "--fail-on-regression")
    assert reverse.returncode == 0 and "0 improved" in reverse.stdout and "2 changed" in reverse.stdout


def test_report_command_rewrites_the_report_and_prints_markdown(runs, tmp_path):
    done = cli_here("report", runs.outage, "--html", tmp_path / "outage.html", "--markdown", "-")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "outage.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "### shop: n/a: nothing could be graded" in done.stdout
    assert (
        "> **Suspected runtime limitation:** 2 of 2 cases ended in execution errors" in done.stdout
        and "| 1 | 1 | 0 | error |" in done.stdout
    )


def test_bad_folders_exit_2_naming_them(tmp_path):
    done = cli_here("report", tmp_path)
    assert done.returncode == 2 and "no run.json here" in done.stderr
    early = cli_here(
        "run",
        "examples/evalsets/knowledge.csv",
        "--agent",
        "examples/evaluation/agent-good.yaml",
        "--out",
        tmp_path / "never",
        "--baseline",
        tmp_path / "nowhere",
    )
    assert early.returncode == 2 and "--baseline" in early.stderr
    assert not (tmp_path / "never").exists()  # refused before anything ran
