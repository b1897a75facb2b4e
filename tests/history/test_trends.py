"""The trends: their definitions on their own, then `history trends --json` and `history runs --json` over real databases."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import LimitationStanding
from copilot_eval.evalsets.repeat_stats import wilson_interval
from copilot_eval.history.trends import flips_and_flakiness, limitation_episodes, regression_point
from tests.history.history_fixtures import ROWS, write_series


def test_wilson_interval_stays_inside_0_and_1_and_is_unknown_without_trials():
    assert wilson_interval(0, 0) is None
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(10, 10)
    assert round(low, 4) == 0.7225 and high == 1.0
    low, high = wilson_interval(0, 3)
    assert low == 0.0 and round(high, 4) == 0.5615
    with pytest.raises(ValueError, match="successes <= trials"):
        wilson_interval(4, 3)


def test_flakiness_is_the_share_of_consecutive_graded_pairs_that_flip():
    assert flips_and_flakiness(["pass", "fail", "pass", "fail"]) == (3, 1.0)
    assert flips_and_flakiness(["pass", "pass", "pass", "fail"]) == (1, 0.3333)
    assert flips_and_flakiness(["fail", "fail"]) == (0, 0.0)
    assert flips_and_flakiness(["pass"]) == (0, None)  # one observation says nothing about flakiness


def _run(number: int) -> dict:
    return {"id": number, "runtime_limitation": None, "limitation_standing": None}


def test_the_regression_point_is_the_first_run_of_the_current_failure_streak():
    runs = [_run(n) for n in range(1, 6)]
    verdicts = ["pass", "fail", "pass", None, "fail"]  # None: the case was not graded in run 4 (an error)
    found = regression_point([(i, r, v) for i, (r, v) in enumerate(zip(runs, verdicts, strict=True))])
    assert found is not None and found.run["id"] == 5 and found.last_pass["id"] == 3
    streak = ["pass", "fail", None, "fail", "fail"]
    found = regression_point([(i, r, v) for i, (r, v) in enumerate(zip(runs, streak, strict=True))])
    assert (
        found is not None and found.run["id"] == 2 and found.last_pass["id"] == 1
    )  # an error neither ends nor starts it
    never = regression_point([(i, r, "fail") for i, r in enumerate(runs)])
    assert never is not None and never.run["id"] == 1 and never.last_pass is None
    assert (
        regression_point([(i, r, v) for i, (r, v) in enumerate(zip(runs, ["fail"] * 4 + ["pass"], strict=True))])
        is None
    )


def test_limitation_episodes_are_runs_in_a_row_and_confirmed_when_any_was():
    runs = [_run(n) for n in range(1, 7)]
    for number, standing in ((2, "suspected"), (3, "confirmed"), (6, "suspected")):
        runs[number - 1] = {**runs[number - 1], "runtime_limitation": "text", "limitation_standing": standing}
    episodes = limitation_episodes(runs)
    assert [(e.first_run, e.last_run, e.runs, e.standing, e.ongoing) for e in episodes] == [
        (2, 3, 2, "confirmed", False),
        (6, 6, 1, "suspected", True),
    ]


def _cli(*args: str) -> dict:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def series_history(history_url, tmp_path) -> str:
    write_series(tmp_path / "runs", ROWS, limitation_runs=[2], standing=LimitationStanding.SUSPECTED)
    write_series(tmp_path / "other", [["fail"]], agent="other-agent")
    result = CliRunner().invoke(
        app, ["history", "ingest", str(tmp_path / "runs"), str(tmp_path / "other"), "--history", history_url]
    )
    assert result.exit_code == 0, result.output
    assert result.output.count(": stored (run ") == 6
    return history_url


def test_trends_json_answers_the_questions_over_time(series_history):
    document = _cli(
        "history", "trends", "--json", "--set", "shop", "--agent", "shop-agent", "--history", series_history
    )
    assert document["schemaVersion"] == 1 and document["window"] is None
    [series] = document["series"]
    assert (series["testSet"], series["agent"]) == ("shop", "shop-agent")
    assert [run["passRate"] for run in series["runs"]] == [80.0, 60.0, 50.0, 40.0, 40.0]
    assert series["runs"][0]["interval"] == {"low": 37.6, "high": 96.4}
    assert [run["limitation"] for run in series["runs"]] == [False, False, True, False, False]
    assert series["limitationEpisodes"] == [
        {"firstRun": 3, "lastRun": 3, "runs": 1, "standing": "suspected", "ongoing": False}
    ]
    run_ids = [run["run"] for run in series["runs"]]
    cases = {case["key"]: case for case in series["cases"]}
    assert list(cases) == ["1.1", "2.1", "3.1", "4.1", "5.1"]

    steady = cases["1.1"]
    assert (steady["passRate"], steady["flakiness"], steady["regression"]) == (100.0, 0.0, None)
    assert steady["interval"] == {"low": 51.0, "high": 100.0}  # four runs outside the limitation

    flaky = cases["2.1"]
    assert [s["statuses"] for s in flaky["statuses"]] == [["pass"], ["fail"], ["pass"], ["fail"], ["fail"]]
    assert flaky["statuses"][2]["limitation"] is True and flaky["underLimitation"] == 1
    assert (flaky["graded"], flaky["passRate"], flaky["flips"], flaky["flakiness"]) == (4, 25.0, 1, 0.3333)
    assert flaky["regression"]["run"] == run_ids[1] and flaky["regression"]["lastPass"]["run"] == run_ids[0]

    regressed = cases["3.1"]
    assert regressed["counts"] == {"pass": 2, "fail": 2, "error": 1, "unknown": 0, "other": 0}
    assert regressed["underLimitation"] == 1  # its error was in the limitation run
    assert regressed["regression"]["run"] == run_ids[3] and regressed["regression"]["lastPass"]["run"] == run_ids[1]

    never = cases["4.1"]
    assert never["passRate"] == 0.0 and never["regression"]["run"] == run_ids[0]
    assert never["regression"]["lastPass"] is None

    # Its one failure was under the limitation: it measured the platform, so the case stays steady.
    platform = cases["5.1"]
    assert (platform["passRate"], platform["flakiness"], platform["regression"]) == (100.0, 0.0, None)


def test_trends_window_and_series_filters(series_history):
    document = _cli("history", "trends", "--json", "--last", "2", "--history", series_history)
    assert {(s["testSet"], s["agent"]) for s in document["series"]} == {("shop", "shop-agent"), ("shop", "other-agent")}
    ours = next(s for s in document["series"] if s["agent"] == "shop-agent")
    assert document["window"] == 2 and len(ours["runs"]) == 2
    flaky = next(c for c in ours["cases"] if c["key"] == "2.1")
    assert [s["statuses"] for s in flaky["statuses"]] == [["fail"], ["fail"]]
    assert flaky["regression"]["lastPass"] is None  # the window no longer holds the pass before the streak
    assert _cli("history", "trends", "--json", "--set", "nothing", "--history", series_history)["series"] == []


def test_runs_json_lists_every_run_newest_first(series_history):
    document = _cli("history", "runs", "--json", "--history", series_history)
    runs = document["runs"]
    assert len(runs) == 6 and document["schemaVersion"] == 1
    newest = runs[0]
    assert newest["testSet"] == "shop" and newest["agent"] == "shop-agent"
    assert [r["runAt"] for r in runs if r["agent"] == "shop-agent"] == sorted(
        (r["runAt"] for r in runs if r["agent"] == "shop-agent"), reverse=True
    )
    assert set(newest) >= {
        "id",
        "runKey",
        "agentModel",
        "runAt",
        "recordedAt",
        "passed",
        "failed",
        "errored",
        "notGraded",
        "gradedCases",
        "scorePercent",
        "runtimeLimitation",
        "limitationStanding",
        "limitationConfirmedBy",
        "fingerprints",
        "shard",
        "git",
        "ciRunUrl",
        "source",
        "runFolder",
        "report",
    }
    assert newest["git"] == {"commit": None, "branch": None}  # ingested without --commit: unknown, not guessed
    assert len(_cli("history", "runs", "--json", "--last", "2", "--history", series_history)["runs"]) == 2
    only = _cli("history", "runs", "--json", "--agent", "other-agent", "--history", series_history)["runs"]
    assert [r["agent"] for r in only] == ["other-agent"]


def test_a_run_in_which_nothing_could_be_graded_has_no_score_in_the_history(tmp_path):
    # run.json keeps generalQualityPercent 0 beside gradedCases 0; the history stores no score, and
    # says so in the words every view of a run uses.
    write_series(tmp_path / "runs", [["pass", "fail"], ["error", "unknown"]])
    url = f"sqlite:///{tmp_path / 'h.db'}"
    assert CliRunner().invoke(app, ["history", "ingest", str(tmp_path / "runs"), "--history", url]).exit_code == 0
    newest, older = _cli("history", "runs", "--json", "--history", url)["runs"]
    assert (newest["gradedCases"], newest["scorePercent"]) == (0, None)
    assert (older["gradedCases"], older["scorePercent"]) == (2, 50.0)
    [series] = _cli("history", "trends", "--json", "--history", url)["series"]
    assert [run["passRate"] for run in series["runs"]] == [50.0, None]
    shown = CliRunner().invoke(app, ["history", "runs", "--history", url], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "n/a: nothing could be graded" in shown.output and "50%" in shown.output
    trends = CliRunner().invoke(app, ["history", "trends", "--history", url], env={"COLUMNS": "200"})
    assert trends.exit_code == 0 and "n/a: nothing could be graded" in trends.output


def test_ingest_takes_the_commit_it_is_told_and_names_a_folder_it_cannot_read(tmp_path):
    write_series(tmp_path / "runs", [["pass"]])
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "run.json").write_text("{not json", encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'h.db'}"
    result = CliRunner().invoke(
        app,
        [
            "history",
            "ingest",
            str(tmp_path / "runs"),
            str(tmp_path / "broken"),
            "--history",
            url,
            "--commit",
            "abc123",
            "--branch",
            "main",
        ],
    )
    assert result.exit_code == 2
    assert "stored (run 1)" in result.output and f"error: {tmp_path / 'broken' / 'run.json'}" in result.output
    [run] = _cli("history", "runs", "--json", "--history", url)["runs"]
    assert run["git"] == {"commit": "abc123", "branch": "main"}


def test_reading_commands_say_there_is_no_history_yet(tmp_path):
    missing = tmp_path / "nothing.db"
    result = CliRunner().invoke(app, ["history", "trends", "--history", str(missing)])
    assert result.exit_code == 2 and f"no history database at {missing}" in result.output
    assert not missing.exists()
    result = CliRunner().invoke(app, ["history", "runs", "--history", "mysql+nodriver://x@/y"])
    assert result.exit_code == 2 and "mysql+nodriver://x@/y" in result.output
