"""`copilot-eval run` writes the HTML report, JUnit XML and a baseline comparison; `report` and `compare` read run folders."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html import unescape

import jsonschema
import pytest

from copilot_eval.evalsets.schema_files import load_schema
from tests.reports.real_runs import RECEIPT_ANSWER, RealRuns, cli

pytestmark = [pytest.mark.runtime, pytest.mark.slow]


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
        assert data["schemaVersion"] == 1
        assert all(r["evidencePath"].startswith("evidence/") for r in data["results"] if "evidencePath" in r)


def test_junit_of_a_real_run(runs):
    suite = ET.parse(runs.junit).getroot().find("testsuite")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(cases) == {"case 1", "case 2"}
    assert cases["case 1"].find("failure") is None and cases["case 2"].find("failure") is not None
    assert suite.get("failures") == "1" and suite.get("errors") == "0"


def test_baseline_comparison_of_a_real_outage(runs):
    # Case 1 passed and now errors (regressed); case 2 failed and now errors: a status change
    # that is not the agent's, listed as "changed".
    assert "1 regressed" in runs.outage_output and "1 changed" in runs.outage_output
    markdown = (runs.outage / "comparison.md").read_text(encoding="utf-8")
    assert "| regressed | case 1 | pass | error |" in markdown and "| changed | case 2 | fail | error |" in markdown
    assert (runs.outage / "comparison.html").is_file()
    html = (runs.outage / "report.html").read_text(encoding="utf-8")
    assert 'role="alert"' in html and "execution errors" in html  # the limitation banner


def test_compare_command_fails_on_regression_when_asked(runs):
    done = cli("compare", runs.tools, runs.outage, "--markdown", "-", "--fail-on-regression")
    assert done.returncode == 1
    assert done.stdout.startswith("### shop: comparison with the baseline") and "-50 points" in done.stdout
    reverse = cli("compare", runs.outage, runs.tools, "--fail-on-regression")
    assert reverse.returncode == 0 and "1 improved" in reverse.stdout


def test_report_command_rewrites_the_report_and_prints_markdown(runs, tmp_path):
    done = cli("report", runs.outage, "--out", tmp_path / "outage.html", "--markdown", "-")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "outage.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "> **Runtime limitation" in done.stdout and "| 1 | 1 | 0 | error |" in done.stdout


def test_bad_folders_exit_2_naming_them(tmp_path):
    done = cli("report", tmp_path)
    assert done.returncode == 2 and "no run.json here" in done.stderr
    early = cli(
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
