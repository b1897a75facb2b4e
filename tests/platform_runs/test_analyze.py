"""`copilot-eval analyze`: the Evaluate tab's results export read into an honest EvalRun."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import CaseStatus, Confidence, LimitationStanding, read_run_json
from copilot_eval.platform_runs import run_from_export
from copilot_eval.runs import platform_error_code

DATA = Path(__file__).with_name("data")


def test_a_healthy_export_is_scored_as_the_platform_graded_it():
    run, test_set = run_from_export(DATA / "export_healthy.csv")
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (3, 1, 0, 75.0)
    assert run.confidence is Confidence.SOURCE_INSPECTED  # read from a file, not measured here
    assert run.runtime_limitation is None and run.limitation_standing is None
    third = run.results[2]
    assert third.failure_reason == "CompareMeaning: Leaves out the e-bike deposit (score 45)."
    assert [g.status for g in third.grades] == [CaseStatus.PASS, CaseStatus.FAIL]
    assert third.grades[1].passing_score == 50
    assert len(run.results[3].grades) == 1  # a row that used fewer methods than the widest one
    assert test_set.cases[3].response == ""


def test_an_all_fallback_export_scores_zero_and_says_it_measures_the_platform():
    run, _ = run_from_export(DATA / "export_fallback.csv")
    assert (run.passed, run.failed, run.general_quality_percent) == (0, 6, 0.0)
    assert run.confidence is Confidence.SOURCE_INSPECTED
    assert run.limitation_standing is LimitationStanding.SUSPECTED
    assert "all 6 answers are the same text" in run.runtime_limitation
    assert "I'm sorry, I'm not sure how to help with that" in run.runtime_limitation


def test_platform_error_codes_are_errors_not_failures():
    run, _ = run_from_export(DATA / "export_error_codes.csv")
    assert (run.passed, run.failed, run.errored) == (1, 0, 5)
    reasons = [r.failure_reason for r in run.results if r.effective_status is CaseStatus.ERROR]
    assert [reason.split(":")[0] for reason in reasons] == [
        "platform error code SystemError",
        "platform error code RATE_LIMIT_REACHED",
        "platform error code GenAISearchandSummarizeRateLimitReached",
        "platform error code CONVERSATION_BUSY",
        "platform error code FlowActionTimedOut",
    ]
    assert run.general_quality_percent == 100.0  # over the one graded case; the errors are not in the score
    assert "5 of 6 cases ended in execution errors" in run.runtime_limitation
    assert run.limitation_standing is LimitationStanding.SUSPECTED


def test_platform_error_code_reads_sentences_and_bare_codes_only():
    assert platform_error_code("Something happened. Error code: QUOTA_EXCEEDED.") == "QUOTA_EXCEEDED"
    assert platform_error_code("CONTENT_FILTERED") == "CONTENT_FILTERED"
    # One detector for exports and live agents alike: a numbered code is a platform error in both.
    assert platform_error_code("Something unexpected happened. Error code: 3000.") == "3000"
    assert platform_error_code("Our error code policy is simple: we refund.") is None
    assert platform_error_code("We are open daily.") is None and platform_error_code(None) is None


def test_cli_writes_run_json_prints_the_summary_and_exits_3_for_a_suspected_limitation(tmp_path):
    result = CliRunner().invoke(app, ["analyze", str(DATA / "export_fallback.csv"), "--out", str(tmp_path)])
    # Every answer is the fallback text: the 0 % measures the platform, which is no verdict on the agent.
    assert result.exit_code == 3, result.output
    assert result.stderr.strip().splitlines()[-1] == (
        "exit 3 (the platform or the infrastructure): a runtime limitation is suspected: "
        "the score measures the platform, not the agent"
    )
    assert "score 0% over 6 graded" in result.stdout and "SOURCE-INSPECTED" in result.stdout
    assert "Suspected runtime limitation: " in result.stdout
    saved = read_run_json(tmp_path / "run.json")
    assert saved.limitation_standing is LimitationStanding.SUSPECTED and saved.failed == 6


def test_an_export_is_named_by_the_agent_it_evaluated(tmp_path):
    history = tmp_path / "h.db"
    for agent, out in (("raybot-draft", "a"), ("raybot-published", "b")):
        done = CliRunner().invoke(
            app,
            ["analyze", str(DATA / "export_fallback.csv"), "--out", str(tmp_path / out), "--agent-name", agent,
             "--history", str(history)],
        )  # fmt: skip
        assert done.exit_code == 3, done.output
    assert read_run_json(tmp_path / "a" / "run.json").agent_name == "raybot-draft"
    listed = CliRunner().invoke(app, ["history", "runs", "--json", "--history", str(history)])
    assert sorted(r["agent"] for r in json.loads(listed.stdout)["runs"]) == ["raybot-draft", "raybot-published"]


def test_cli_refuses_unreadable_exports_with_exit_2_listing_every_problem(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        '"question","expectedResponse","actualResponse","testMethodType_1","result_1","passingScore_1",'
        '"explanation_1"\n"q","r","a","GeneralQuality","Maybe","","x"\n"q","r","a","CompareMeaning","Pass",'
        '"half","x"\n"q","r"\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["analyze", str(bad), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "3 problems" in result.stderr
    assert "line 2, result_1: 'Maybe' is not a verdict (expected Pass, Fail, Error or Unknown)" in result.stderr
    assert "line 3, passingScore_1: 'half' is not a number" in result.stderr
    assert "line 4: expected 7 fields, found 2" in result.stderr
    assert not (tmp_path / "out").exists()
    wrong = tmp_path / "set.csv"
    wrong.write_text('"conversationNumber","question","response"\n"1","q","r"\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["analyze", str(wrong)])
    assert (
        result.exit_code == 2 and "a results export starts 'question,expectedResponse,actualResponse'" in result.stderr
    )
    missing = CliRunner().invoke(app, ["analyze", str(tmp_path / "none.csv")])
    assert missing.exit_code == 2 and "results export not found" in missing.stderr


def test_cli_refuses_a_test_set_given_as_an_export_naming_the_header(tmp_path):
    test_set = tmp_path / "set.csv"
    test_set.write_text('"question","expectedResponse"\n"What are the opening hours?","8 to 19"\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["analyze", str(test_set), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2  # it used to crash reading the rows of a file that is not an export
    assert "header starts 'question,expectedResponse'" in result.stderr


def test_analyze_then_regrade_then_report_then_compare_work_on_one_folder(tmp_path):
    # The export's folder is a whole run folder: every other command reads it as one of ours.
    analysed, regraded = tmp_path / "analysed", tmp_path / "regraded"
    done = CliRunner().invoke(
        app, ["analyze", str(DATA / "export_healthy.csv"), "--out", str(analysed), "--no-history"]
    )
    assert done.exit_code == 0, done.output
    for name in ("run.json", "results.csv", "test-set.json", "report.html", "evidence/export_healthy.csv"):
        assert (analysed / name).is_file(), name
    assert read_run_json(analysed / "run.json").schema_version is not None
    # the answers the export holds are graded again, without the platform: the dog question has no reference
    again = CliRunner().invoke(
        app, ["regrade", str(analysed), "--grader", "keywords:any:daily,24,150", "--out", str(regraded), "--no-history"]
    )
    assert again.exit_code == 0, again.output
    run = read_run_json(regraded / "run.json")
    assert [r.effective_status for r in run.results] == [CaseStatus.PASS] * 3 + [CaseStatus.FAIL]
    assert (regraded / "report.html").is_file() and "regraded from" in (run.note or "")
    report = CliRunner().invoke(app, ["report", str(regraded), "--markdown", "-"])
    assert report.exit_code == 0 and "### export_healthy: 75% over 4 graded" in report.stdout
    compared = CliRunner().invoke(app, ["compare", str(analysed), str(regraded), "--fail-on-regression"])
    # the deposit's answer names 150 (improved), the politician's none of the words (regressed): a gate of compare's
    assert compared.exit_code == 1, compared.output
    assert "1 regressed, 0 error, 1 improved, 0 changed, 0 new, 0 removed, 2 unchanged" in compared.stdout
    assert (
        compared.stderr.strip()
        == f"exit 1 (below a gate): 1 case(s) regressed against {analysed} (--fail-on-regression)"
    )
