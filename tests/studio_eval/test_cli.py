"""`copilot-eval studio-eval list|run|get` end to end against the fake: run folders, reports, exit codes."""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.cli.studio_eval_cmd import _say  # the `say` every studio-eval progress line goes through
from copilot_eval.testing import FakeStudioEval, LoopbackServer, case_result, metric_result
from tests.studio_eval.studio_helpers import (
    BIKE_SHOP,
    TOKEN_ENV,
    bike_shop_set,
    no_answer_set,
    studio_cli,
    write_export,
)


def _posts(fake: FakeStudioEval) -> int:
    return sum(method == "POST" for method, _, _ in fake.requests)


def test_a_draft_run_with_its_export_becomes_a_run_folder_with_reports_and_junit(tmp_path):
    fake = FakeStudioEval([bike_shop_set()])
    export, out, junit = write_export(tmp_path), tmp_path / "run", tmp_path / "junit.xml"
    with LoopbackServer(fake):
        result = studio_cli(
            fake, "run", "--test-set", "Bike shop nightly", "--out", str(out), "--export", str(export),
            "--junit", str(junit), "--fail-under", "70",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "copilot-eval started 0 run(s) of this agent on this machine in the last 24 h" in result.output
    assert "InProgress (EvaluatingRun)" in result.output and "Completed, 4 of 4 test cases processed" in result.output
    assert "4 of 4 test cases joined, matched by explanation" in result.output
    assert "score 75% over 4 graded" in result.output
    run = json.loads((out / "run.json").read_text())
    record = run["platformRun"]
    assert (record["state"], record["published"], record["exportJoin"]["matchedBy"]) == (
        "Completed",
        False,
        "explanation",
    )
    snapshot = out / record["snapshot"]["path"]
    assert hashlib.sha256(snapshot.read_bytes()).hexdigest() == record["snapshot"]["sha256"]
    third = run["results"][2]
    assert third["caseId"] == fake.runs[record["runId"]].test_set.cases[2]["testCaseId"]
    assert third["actualResponse"] == "Yes, 150 euros per bike." and third["status"] == "fail"
    assert third["grades"][0]["data"] == {"relevance": "Yes"}
    html = (out / "report.html").read_text()
    assert "Do I need a deposit?" in html and "Leaves out the e-bike deposit (score 45)." in html
    assert "error reason" in html and "relevance: Yes" in html
    assert f'<a href="{record["snapshot"]["path"]}">' in html and record["snapshot"]["sha256"] in html
    assert "matched by explanation" in html and "Duration per session" not in html  # no charts of unknowns
    assert (
        '"Do I need a deposit?","150 euros per bike, 300 for an e-bike.","Yes, 150 euros per bike."'
        in (out / "results.csv").read_text()
    )
    failure = ET.parse(junit).getroot().find(".//testcase[@name='case 3']/failure")
    assert "question: Do I need a deposit?" in failure.text and "CompareMeaning (fail): Leaves out" in failure.text


def test_below_fail_under_exits_1_and_the_ledger_counts_runs(tmp_path):
    fake = FakeStudioEval([bike_shop_set()])
    with LoopbackServer(fake):
        first = studio_cli(
            fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "a"), "--fail-under", "80"
        )
        second = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "b"))
    assert first.exit_code == 1 and "score 75% is below --fail-under 80" in first.output
    assert second.exit_code == 0 and "copilot-eval started 1 run(s) of this agent" in second.output


def test_get_reads_an_existing_run_without_starting_one(tmp_path):
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set])
    run = fake.start_elsewhere(test_set, name="from the Evaluate tab")
    with LoopbackServer(fake):
        result = studio_cli(fake, "get", run.id, "--out", str(tmp_path / "got"), "--timeout-s", "5")
    assert result.exit_code == 0, result.output
    assert _posts(fake) == 0
    record = json.loads((tmp_path / "got" / "run.json").read_text())["platformRun"]
    assert (record["runId"], record["runName"], record["testSetName"]) == (
        run.id,
        "from the Evaluate tab",
        "Bike shop nightly",
    )
    assert "published" not in record  # unknown for a run read by id: left out, not false


def test_a_busy_agent_exits_3_naming_the_run_in_progress(tmp_path):
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set], busy_status=422)
    busy = fake.start_elsewhere(test_set)
    with LoopbackServer(fake):
        result = studio_cli(fake, "run", "--test-set", test_set.id, "--out", str(tmp_path / "run"))
    assert result.exit_code == 3
    assert "a run is already in progress for this agent" in result.output
    assert f"copilot-eval studio-eval get {busy.id}" in result.output
    assert not (tmp_path / "run" / "run.json").exists()


def test_the_daily_limit_exits_3_with_the_count_and_the_reset_and_is_not_retried(tmp_path):
    fake = FakeStudioEval([bike_shop_set()], daily_limit=1, limit_retry_after_s=7200)
    with LoopbackServer(fake):
        assert studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "a")).exit_code == 0
        result = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "b"))
    assert result.exit_code == 3
    assert _posts(fake) == 2  # one each: the refused one is never retried
    assert "copilot-eval started 1 run(s) of this agent on this machine in the last 24 h" in result.output
    assert "the run request is not retried" in result.output and "the platform says the limit lifts at" in result.output
    assert "retry after 7200 s" in result.output


def test_a_published_500_is_a_recorded_limitation_that_a_draft_run_confirms(tmp_path):
    fake = FakeStudioEval([bike_shop_set()], published_fails=True)
    with LoopbackServer(fake):
        draft = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "draft"))
        alone = studio_cli(
            fake, "run", "--test-set", "Bike shop nightly", "--published", "--out", str(tmp_path / "pub")
        )
        confirmed = studio_cli(
            fake, "run", "--test-set", "Bike shop nightly", "--published", "--out", str(tmp_path / "pub2"),
            "--confirm-with", str(tmp_path / "draft"),
        )  # fmt: skip
    assert draft.exit_code == 0
    assert alone.exit_code == 3 and "run the draft instead (leave out --published)" in alone.output
    refused = json.loads((tmp_path / "pub" / "run.json").read_text())
    assert refused["limitationStanding"] == "suspected" and refused["platformRun"]["httpStatus"] == 500
    assert "HTTP 500 to the run request for the published agent" in refused["runtimeLimitation"]
    assert (tmp_path / "pub" / "report.html").is_file()
    assert confirmed.exit_code == 3
    run = json.loads((tmp_path / "pub2" / "run.json").read_text())
    assert run["limitationStanding"] == "confirmed"
    (by,) = run["limitationConfirmedBy"]  # the standing and what confirmed it are fields, not words in the text
    assert by.startswith("surface draft (Copilot Studio bot") and "confirmed" not in run["runtimeLimitation"].lower()
    assert "answered the same 4 questions well: 3 of 4 passed (75%)" in by
    # The report's banner is headed by the standing once, then the text (it once read "Runtime
    # limitation (confirmed): Confirmed runtime limitation: ..."), and the score is no score.
    html = (tmp_path / "pub2" / "report.html").read_text(encoding="utf-8")
    assert "<b>Confirmed runtime limitation:</b> the platform answered HTTP 500" in html
    assert html.lower().count("confirmed runtime limitation") == 1 and "n/a: nothing could be graded" in html


def test_a_draft_without_answers_exits_3_as_a_runtime_limitation_whatever_the_threshold(tmp_path):
    fake = FakeStudioEval([no_answer_set()])
    with LoopbackServer(fake):
        result = studio_cli(
            fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "r"), "--fail-under", "0"
        )
    assert result.exit_code == 3
    assert "Suspected runtime limitation:" in result.output and "AgentResponseIsNullOrEmpty" in result.output
    assert "the score measures the platform, not the agent" in result.output


def test_a_failed_platform_run_exits_3(tmp_path):
    test_set = bike_shop_set(final_state="Failed")
    fake = FakeStudioEval([test_set])
    with LoopbackServer(fake):
        result = studio_cli(fake, "run", "--test-set", test_set.id, "--out", str(tmp_path / "r"))
    assert result.exit_code == 3 and "the platform's run ended Failed" in result.output


def test_credentials_ids_and_permissions_are_input_problems_exit_2(tmp_path, monkeypatch):
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set])
    with LoopbackServer(fake):
        monkeypatch.setenv(TOKEN_ENV, "a-token-the-fake-does-not-know")
        bad_token = studio_cli(fake, "list")
        monkeypatch.setenv(TOKEN_ENV, fake.read_only_token)
        read_only = studio_cli(fake, "run", "--test-set", test_set.id, "--out", str(tmp_path / "r"))
        listed = studio_cli(fake, "list")
        monkeypatch.setenv(TOKEN_ENV, fake.token)
        unknown_set = studio_cli(fake, "run", "--test-set", "Nightly 2", "--out", str(tmp_path / "r"))
        unknown_run = studio_cli(fake, "get", "0000-no-such-run", "--out", str(tmp_path / "g"))
    no_token = CliRunner().invoke(app, ["studio-eval", "list", "--environment-id", "e", "--bot-id", "b"])
    assert bad_token.exit_code == 2 and "copilot-eval login --client-id" in bad_token.output
    assert read_only.exit_code == 2 and "CopilotStudio.MakerOperations.ReadWrite" in read_only.output
    assert listed.exit_code == 0 and "Bike shop nightly" in listed.output
    assert (
        unknown_set.exit_code == 2
        and "no test set has this id or name; the agent has: 'Bike shop nightly'" in unknown_set.output
    )
    assert unknown_run.exit_code == 2 and "run 0000-no-such-run was not found" in unknown_run.output
    assert no_token.exit_code == 2 and "give --token-env VAR" in no_token.output
    assert _posts(fake) == 1  # only the read-only attempt reached the run request


def test_input_is_checked_before_a_run_is_spent(tmp_path):
    fake = FakeStudioEval([bike_shop_set()])
    broken = tmp_path / "broken.csv"
    broken.write_text('"question","expectedResponse"\n"q","r"\n', encoding="utf-8")
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "run.json").write_text("{}")
    with LoopbackServer(fake):
        missing = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--export", str(tmp_path / "nope.csv"))
        unreadable = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--export", str(broken))
        used = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "used"))
        bad_match = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--export-match", "fuzzy")
    assert [r.exit_code for r in (missing, unreadable, used, bad_match)] == [2, 2, 2, 2]
    assert "nope.csv" in missing.output and "header starts" in unreadable.output
    assert "already holds a run" in used.output and "--export-match 'fuzzy'" in bad_match.output
    assert fake.requests == []


def test_a_run_still_going_at_the_timeout_exits_3_and_says_how_to_read_it(tmp_path):
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set], running_polls=100)
    with LoopbackServer(fake):
        result = studio_cli(fake, "run", "--test-set", test_set.id, "--out", str(tmp_path / "r"), "--timeout-s", "0")
    (run_id,) = fake.runs
    assert result.exit_code == 3 and f"copilot-eval studio-eval get {run_id}" in result.output


def test_an_unsafe_join_exits_2_and_keeps_the_run_without_the_text(tmp_path):
    fake = FakeStudioEval([bike_shop_set()])
    other = [
        (q, r, "another answer", [(m, s, f"{why} (another run)") for m, s, why in ms]) for q, r, _, ms in BIKE_SHOP
    ]
    export = write_export(tmp_path, other)
    with LoopbackServer(fake):
        result = studio_cli(
            fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "r"), "--export", str(export)
        )
    assert result.exit_code == 2
    assert "cannot be matched to this run's test cases safely, so no text was joined" in result.output
    run = json.loads((tmp_path / "r" / "run.json").read_text())
    assert "exportJoin" not in run["platformRun"] and all("actualResponse" not in r for r in run["results"])
    assert run["passed"] == 3  # the platform's verdicts are kept


def test_compare_matches_two_platform_runs_by_test_case_id(tmp_path):
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set])
    with LoopbackServer(fake):
        assert studio_cli(fake, "run", "--test-set", test_set.id, "--out", str(tmp_path / "before")).exit_code == 0
        # Next night the hours answer regresses, and the platform lists the cases in another order.
        hours = test_set.cases[0]
        hours["metricsResults"] = [metric_result("GeneralQuality", "Fail", "Gives the winter hours only.")]
        test_set.cases = [*test_set.cases[1:], hours]
        assert studio_cli(fake, "run", "--test-set", test_set.id, "--out", str(tmp_path / "after")).exit_code == 0
    compared = CliRunner().invoke(
        app, ["compare", str(tmp_path / "before"), str(tmp_path / "after"), "--markdown", "-"]
    )
    assert compared.exit_code == 0, compared.output
    # By position this would read 2 regressed and 1 improved; by test case id only the hours case changed.
    assert "1 regressed, 0 error, 0 improved, 0 changed, 0 new, 0 removed, 3 unchanged" in compared.output
    assert "| regressed | case 4 | pass | fail |" in compared.output


def test_the_token_never_reaches_a_file_or_the_output(tmp_path, monkeypatch):
    canary = "canary-pp-token-" + "7" * 24
    fake = FakeStudioEval([bike_shop_set(), case_set := bike_shop_set()], token=canary)
    del case_set
    monkeypatch.setenv(TOKEN_ENV, canary)
    with LoopbackServer(fake):
        result = studio_cli(
            fake, "run", "--test-set", fake.test_sets[next(iter(fake.test_sets))].id, "--out", str(tmp_path / "r")
        )
    assert result.exit_code == 0, result.output
    assert canary not in result.output
    for path in (tmp_path / "r").rglob("*"):
        if path.is_file():
            assert canary.encode() not in path.read_bytes(), path


def test_case_result_helpers_build_a_case_without_metrics():
    assert case_result()["metricsResults"] == []


def test_a_confirming_folder_of_another_test_set_is_refused_before_a_run(tmp_path):
    nightly, weekly = bike_shop_set(), bike_shop_set(display_name="Weekly")
    fake = FakeStudioEval([nightly, weekly], published_fails=True)
    with LoopbackServer(fake):
        assert studio_cli(fake, "run", "--test-set", weekly.id, "--out", str(tmp_path / "weekly")).exit_code == 0
        result = studio_cli(
            fake, "run", "--test-set", nightly.id, "--published", "--confirm-with", str(tmp_path / "weekly"),
            "--out", str(tmp_path / "pub"),
        )  # fmt: skip
    assert result.exit_code == 2 and f"a run of test set {weekly.id}, not of {nightly.id}" in result.output
    assert _posts(fake) == 1


def test_the_finished_states_of_the_run_folder_are_the_clients(tmp_path):
    from copilot_eval.evalsets.platform_record import FINISHED_PLATFORM_STATES
    from copilot_eval.studio_eval.shapes import FINISHED_RUN_STATES

    assert set(FINISHED_RUN_STATES) == FINISHED_PLATFORM_STATES


def test_list_shows_the_platforms_names_as_text_never_as_markup(monkeypatch):
    # a test set's display name is authored by someone else in the Evaluate tab
    fake = FakeStudioEval([bike_shop_set(display_name="Nightly [bold]bikes[/bold]")])
    monkeypatch.setenv(TOKEN_ENV, fake.token)
    monkeypatch.setenv("COLUMNS", "200")  # the name on one line of the table, whatever the terminal's width
    with LoopbackServer(fake):
        listed = studio_cli(fake, "list")
    assert listed.exit_code == 0 and "Nightly [bold]bikes[/bold]" in listed.output, listed.output


def test_what_the_platform_says_while_a_run_goes_reaches_the_terminal_as_text(capsys):
    _say("run 7f0c: InProgress (\x1b]0;pwned\x07Evaluating)")  # a state the terminal would obey
    shown = capsys.readouterr().out
    assert "\\x1b]0;pwned\\x07Evaluating" in shown and "\x1b" not in shown, shown
