"""Every command that writes a run folder records it: merge, studio-eval run and get, analyze (and the newer-run.json message)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.history import HistoryStore, list_runs, resolve_history, runs_document
from copilot_eval.reports.run_folder import RUN_SCHEMA_VERSION
from copilot_eval.testing import FakeStudioEval, LoopbackServer
from copilot_eval.version import __version__
from tests.history.history_fixtures import write_run, write_shards
from tests.studio_eval.studio_helpers import TOKEN_ENV, bike_shop_set, studio_cli, write_export

ANALYZE_EXPORT = Path(__file__).resolve().parents[1] / "platform_runs" / "data" / "export_healthy.csv"


def _stored(url: str) -> list[dict]:
    location = resolve_history(url)
    assert location is not None
    with HistoryStore.open(location, create=False) as store:
        return runs_document(list_runs(store), database="db")["runs"]


def test_merge_records_the_merged_run_and_links_the_shards_already_stored(tmp_path):
    url = f"sqlite:///{tmp_path / 'history.db'}"
    shards = write_shards(tmp_path, ["pass", "fail", "pass", "pass"], count=2)
    ingested = CliRunner().invoke(app, ["history", "ingest", *map(str, shards), "--history", url])
    assert ingested.exit_code == 0, ingested.output
    merged = CliRunner().invoke(app, ["merge", *map(str, shards), "--out", str(tmp_path / "m"), "--history", url])
    assert merged.exit_code == 0, merged.output
    assert "history: stored as run 3 in" in merged.output
    runs = {run["id"]: run for run in _stored(url)}
    assert runs[3]["source"] == "merge" and runs[3]["merge"]["shards"] == [1, 2]
    assert runs[1]["mergedInto"] == runs[2]["mergedInto"] == 3


def test_history_runs_marks_shards_and_merges_and_lists_a_merge_with_its_shards(tmp_path):
    url = f"sqlite:///{tmp_path / 'history.db'}"
    shards = write_shards(tmp_path, ["pass", "fail", "pass", "pass"], count=2)
    for folder in (shards[1], shards[0]):  # stored in another order than they ran
        assert CliRunner().invoke(app, ["history", "ingest", str(folder), "--history", url]).exit_code == 0
    merged = CliRunner().invoke(app, ["merge", *map(str, shards), "--out", str(tmp_path / "m"), "--history", url])
    assert merged.exit_code == 0, merged.output
    listing = CliRunner().invoke(app, ["history", "runs", "--history", url], env={"COLUMNS": "250"})
    assert listing.exit_code == 0, listing.output
    rows = [line for line in listing.output.splitlines() if line.startswith("│")]
    parts = [
        next((p for p in ("merge of shards 1, 2 of 2", "shard 1/2 in run 3", "shard 2/2 in run 3") if p in row), row)
        for row in rows
    ]
    assert parts == ["merge of shards 1, 2 of 2", "shard 1/2 in run 3", "shard 2/2 in run 3"]


def test_merge_with_no_history_records_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'history.db'}"
    shards = write_shards(tmp_path, ["pass", "fail"], count=2)
    done = CliRunner().invoke(
        app, ["merge", *map(str, shards), "--out", str(tmp_path / "m"), "--history", url, "--no-history"]
    )
    assert done.exit_code == 0, done.output
    assert "history: " not in done.output and not (tmp_path / "history.db").exists()


def test_a_history_merge_cannot_write_is_a_warning_and_the_merge_stands(tmp_path):
    blocked = tmp_path / "a-folder-not-a-database"
    blocked.mkdir()
    shards = write_shards(tmp_path, ["pass", "fail"], count=2)
    done = CliRunner().invoke(
        app, ["merge", *map(str, shards), "--out", str(tmp_path / "m"), "--history", str(blocked)]
    )
    assert done.exit_code == 0, done.output
    assert f"warning: the run was not recorded in the history ({blocked})" in done.output
    assert (tmp_path / "m" / "run.json").is_file()


def test_studio_eval_run_and_get_record_the_platform_run_once_with_its_ids(tmp_path, monkeypatch):
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))  # the ledger of started runs
    monkeypatch.setenv(TOKEN_ENV, "fake-power-platform-token")
    url = f"sqlite:///{tmp_path / 'history.db'}"
    fake = FakeStudioEval([bike_shop_set()])
    with LoopbackServer(fake):
        ran = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "a"), "--history", url)
        assert ran.exit_code == 0, ran.output
        run_id = json.loads((tmp_path / "a" / "run.json").read_text())["platformRun"]["runId"]
        export = write_export(tmp_path)
        again = studio_cli(fake, "get", run_id, "--out", str(tmp_path / "b"), "--export", str(export), "--history", url)
        assert again.exit_code == 0, again.output
    assert "history: stored as run 1" in ran.output
    # The same platform run, now with the export's text: its note is revised, it is not stored twice.
    assert "history: updated as run 1" in again.output
    [stored] = _stored(url)
    assert stored["source"] == "studio-eval" and stored["platformRunId"] == run_id
    assert stored["platformState"] == "Completed" and stored["rateLimitRetries"] is None
    location = resolve_history(url)
    assert location is not None
    from copilot_eval.history.queries import run_results

    with HistoryStore.open(location, create=False) as store:
        case_ids = [row["platform_case_id"] for row in run_results(store, stored["id"])]
    assert case_ids == [case["testCaseId"] for case in fake.runs[run_id].test_set.cases]


def _read_while_running(finished: Path, copy: Path, cases: int) -> Path:
    """The run folder of a read made while the run was still going: its first cases, no end time yet."""
    shutil.copytree(finished, copy)
    data = json.loads((copy / "run.json").read_text())
    data["platformRun"] |= {"state": "InProgress", "executionState": "EvaluatingRun", "endTime": None}
    kept = data["results"][:cases]
    counts = {key: sum(1 for r in kept if r.get("status") == key) for key in ("pass", "fail", "error")}
    data |= {"results": kept, "durationMs": None, "passed": counts["pass"], "failed": counts["fail"]}
    data |= {"errored": counts["error"], "gradedCases": counts["pass"] + counts["fail"]}
    (copy / "run.json").write_text(json.dumps(data))
    return copy


def test_a_platform_run_read_while_running_and_again_when_finished_is_one_record(tmp_path, monkeypatch):
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(TOKEN_ENV, "fake-power-platform-token")
    url = f"sqlite:///{tmp_path / 'history.db'}"
    nightly = bike_shop_set()
    fake = FakeStudioEval([nightly])
    with LoopbackServer(fake):
        run = fake.start_elsewhere(nightly)
        done = studio_cli(fake, "get", run.id, "--out", str(tmp_path / "done"), "--timeout-s", "30", "--no-history")
    assert done.exit_code == 0, done.output
    early = _read_while_running(tmp_path / "done", tmp_path / "early", cases=2)

    def ingest(folder: Path) -> str:
        outcome = CliRunner().invoke(app, ["history", "ingest", str(folder), "--history", url])
        assert outcome.exit_code == 0, outcome.output
        return outcome.output

    assert "early: stored (run 1)" in ingest(early)
    assert "done: updated (run 1)" in ingest(tmp_path / "done")  # the finished read replaces the running one
    ingest(early)  # a stale copy of the running read, ingested again, changes nothing
    [stored] = _stored(url)
    assert stored["platformState"] == "Completed" and stored["results"] == len(nightly.cases)
    assert stored["runFolder"] == str((tmp_path / "done").resolve())


def test_people_s_verdicts_on_a_platform_run_read_while_running_survive_the_finished_read(tmp_path, monkeypatch):
    from copilot_eval.history.human_verdicts import HumanLabel, add_verdicts, given_verdicts

    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(TOKEN_ENV, "fake-power-platform-token")
    url = f"sqlite:///{tmp_path / 'history.db'}"
    nightly = bike_shop_set()
    fake = FakeStudioEval([nightly])
    with LoopbackServer(fake):
        run = fake.start_elsewhere(nightly)
        done = studio_cli(fake, "get", run.id, "--out", str(tmp_path / "done"), "--timeout-s", "30", "--no-history")
    assert done.exit_code == 0, done.output
    early = _read_while_running(tmp_path / "done", tmp_path / "early", cases=2)
    location = resolve_history(url)
    assert location is not None
    assert CliRunner().invoke(app, ["history", "ingest", str(early), "--history", url]).exit_code == 0
    with HistoryStore.open(location, create=False) as store:
        [stored] = list_runs(store)
        run_id = stored["id"]
        assert given_verdicts(store, run_id) == {}  # nobody has reviewed it yet
        from copilot_eval.history.queries import run_results

        first_key = run_results(store, run_id)[0]["case_key"]
        add_verdicts(store, run_id, [HumanLabel(first_key, "fail", "ada", note="cites the wrong policy")])
    # The finished read replaces the running one's results: what the person said is kept.
    ingested = CliRunner().invoke(app, ["history", "ingest", str(tmp_path / "done"), "--history", url])
    assert "updated (run 1)" in ingested.output, ingested.output
    with HistoryStore.open(location, create=False) as store:
        given = given_verdicts(store, run_id)
        assert [(key, v.verdict, v.reviewer, v.note) for (key, _), v in given.items()] == [
            (first_key, "fail", "ada", "cites the wrong policy")
        ]
        assert len(run_results(store, run_id)) == len(nightly.cases)


def test_studio_eval_get_names_the_surface_this_machine_started(tmp_path, monkeypatch):
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(TOKEN_ENV, "fake-power-platform-token")
    nightly = bike_shop_set()
    fake = FakeStudioEval([nightly])
    with LoopbackServer(fake):
        ran = studio_cli(fake, "run", "--test-set", "Bike shop nightly", "--out", str(tmp_path / "a"), "--no-history")
        run_id = json.loads((tmp_path / "a" / "run.json").read_text())["platformRun"]["runId"]
        got = studio_cli(fake, "get", run_id, "--out", str(tmp_path / "b"), "--no-history")
        elsewhere = fake.start_elsewhere(nightly)
        other = studio_cli(fake, "get", elsewhere.id, "--out", str(tmp_path / "c"), "--timeout-s", "30", "--no-history")
    assert ran.exit_code == got.exit_code == other.exit_code == 0, other.output
    names = [json.loads((tmp_path / n / "run.json").read_text())["agentName"] for n in "abc"]
    assert names[0] == names[1] == f"Copilot Studio bot {fake.bot_id} (draft)"
    assert names[2] == f"Copilot Studio bot {fake.bot_id}"  # started elsewhere: the API does not say which surface
    note = json.loads((tmp_path / "c" / "run.json").read_text())["note"]
    assert "which surface (draft or published) ran it is not known" in note


def test_analyze_records_its_run_folder(tmp_path):
    url = f"sqlite:///{tmp_path / 'history.db'}"
    done = CliRunner().invoke(app, ["analyze", str(ANALYZE_EXPORT), "--out", str(tmp_path / "a"), "--history", url])
    assert done.exit_code == 0, done.output
    [stored] = _stored(url)
    assert stored["source"] == "analyze" and (stored["passed"], stored["failed"]) == (3, 1)


def test_ingest_of_a_run_json_from_a_newer_copilot_eval_says_to_upgrade(tmp_path):
    url = f"sqlite:///{tmp_path / 'history.db'}"
    write_run(tmp_path / "run", ["pass"])
    path = tmp_path / "run" / "run.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "schemaVersion": RUN_SCHEMA_VERSION + 1, "aFieldOfLater": True}))
    done = CliRunner().invoke(app, ["history", "ingest", str(tmp_path / "run"), "--history", url])
    assert done.exit_code == 2
    assert (
        f"{path} has schemaVersion {RUN_SCHEMA_VERSION + 1}; this copilot-eval reads up to {RUN_SCHEMA_VERSION}: "
        f"upgrade copilot-eval (this is {__version__}; `copilot-eval --version` after the upgrade says which)"
    ) in done.output
    assert "aFieldOfLater" not in done.output


def test_regrade_records_its_run_with_the_graders_changed_and_nothing_else(tmp_path):
    url = f"sqlite:///{tmp_path / 'history.db'}"
    analysed, regraded = tmp_path / "analysed", tmp_path / "regraded"
    first = CliRunner().invoke(app, ["analyze", str(ANALYZE_EXPORT), "--out", str(analysed), "--history", url])
    assert first.exit_code == 0, first.output
    done = CliRunner().invoke(
        app, ["regrade", str(analysed), "--grader", "keywords:any:daily", "--out", str(regraded), "--history", url]
    )
    assert done.exit_code == 0, done.output
    assert "history: stored as run 2 in" in done.output
    runs = {run["id"]: run for run in _stored(url)}
    assert (runs[1]["source"], runs[2]["source"]) == ("analyze", "regrade")
    before, after = runs[1]["fingerprints"], runs[2]["fingerprints"]
    assert after["testSet"] == before["testSet"] and after["graders"] != before["graders"]
