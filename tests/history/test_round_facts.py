"""What the history keeps of shards and merges, verdicts over repeats, retries, judges and fingerprints (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from rich.console import Console
from sqlalchemy import create_engine, text

from copilot_eval.history import HistoryStore, list_runs, load_series, resolve_history, runs_document, series_trends
from copilot_eval.history.dashboard import pass_rate_chart
from copilot_eval.history.ingest import ingest_folders
from copilot_eval.history.json_forms import series_json
from copilot_eval.history.schema import alembic_config
from copilot_eval.history.terminal import print_series
from copilot_eval.runs import merge_run_folders
from tests.history.history_fixtures import START, write_run, write_series, write_shards

SIX = ["pass", "fail", "pass", "pass", "error", "fail"]


def _open(url: str) -> HistoryStore:
    location = resolve_history(url)
    assert location is not None
    return HistoryStore.open(location)


def _trends(store: HistoryStore) -> dict:
    return series_json(series_trends(load_series(store, "shop", "shop-agent")))


def _runs(store: HistoryStore) -> dict[int, dict]:
    return {run["id"]: run for run in runs_document(list_runs(store), database="db")["runs"]}


def _edit(folder: Path, change) -> None:
    path = folder / "run.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _merged(shards: list[Path], out: Path, *, allow_partial: bool = False) -> Path:
    """Merge the shards into a finished folder (the Python call finishes it, as `copilot-eval merge` does)."""
    [merged] = merge_run_folders(shards, out, allow_partial=allow_partial)
    return merged.folder.folder


def test_shards_then_their_merged_run_are_stored_linked_and_counted_once(history_url, tmp_path):
    shards = write_shards(tmp_path, SIX, count=2)
    merged = _merged(shards, tmp_path / "merged")
    with _open(history_url) as store:
        shard_ids = [outcome.run_id for _, outcome in ingest_folders(store, shards)]
        [(_, outcome)] = ingest_folders(store, [merged])
        runs, trends = _runs(store), _trends(store)
    merged_run = runs[outcome.run_id]
    assert merged_run["merge"] == {"shardCount": 2, "shards": [1, 2], "complete": True}
    assert merged_run["shard"] is None and merged_run["mergedInto"] is None
    assert [runs[i]["mergedInto"] for i in shard_ids] == [outcome.run_id, outcome.run_id]
    assert {runs[i]["shard"]["index"] for i in shard_ids} == {1, 2}
    assert [point["run"] for point in trends["runs"]] == [outcome.run_id]
    assert trends["runs"][0]["merge"]["shards"] == [1, 2]
    for case in trends["cases"]:
        assert sum(case["counts"].values()) == 1, case  # each play once, not once per shard and once merged


def test_a_merged_run_stored_first_links_the_shards_ingested_after_it(history_url, tmp_path):
    shards = write_shards(tmp_path, SIX, count=3)
    merged = _merged(shards, tmp_path / "merged")
    with _open(history_url) as store:
        [(_, first)] = ingest_folders(store, [merged])
        later = [outcome.run_id for _, outcome in ingest_folders(store, shards)]
        runs, trends = _runs(store), _trends(store)
    assert [runs[i]["mergedInto"] for i in later] == [first.run_id] * 3
    assert [point["run"] for point in trends["runs"]] == [first.run_id]


@pytest.mark.parametrize("order", ["partial first", "full first"])
def test_a_partial_and_the_full_merge_of_the_same_shards_count_once(history_url, tmp_path, order):
    shards = write_shards(tmp_path, SIX, count=3)
    partial = _merged(shards[:2], tmp_path / "partial", allow_partial=True)
    full = _merged(shards, tmp_path / "full")
    merges = [partial, full] if order == "partial first" else [full, partial]
    with _open(history_url) as store:
        ingest_folders(store, shards)
        stored = {
            folder: outcome.run_id for folder, (_, outcome) in zip(merges, ingest_folders(store, merges), strict=True)
        }
        runs, trends = _runs(store), _trends(store)
    assert runs[stored[partial]]["merge"]["complete"] is False
    assert runs[stored[partial]]["mergedInto"] == stored[full] and runs[stored[full]]["mergedInto"] is None
    assert [point["run"] for point in trends["runs"]] == [stored[full]]
    for case in trends["cases"]:
        assert sum(case["counts"].values()) == 1, case


def test_a_shard_of_another_night_is_not_taken_for_part_of_a_merged_run(history_url, tmp_path):
    # Last night only shard 1 ran (its merge never happened); tonight both ran and were merged. Same statuses.
    [lonely] = write_shards(tmp_path / "night1", SIX, count=2, only=[1])
    tonight = write_shards(tmp_path / "night2", SIX, count=2, run_at=START + timedelta(days=1), played=7.0)
    merged = _merged(tonight, tmp_path / "merged")
    with _open(history_url) as store:
        [(_, alone)] = ingest_folders(store, [lonely])
        ingest_folders(store, [*tonight, merged])
        runs, trends = _runs(store), _trends(store)
    assert runs[alone.run_id]["mergedInto"] is None
    assert trends["runs"][0]["run"] == alone.run_id and len(trends["runs"]) == 2


def test_verdicts_over_repeats_and_the_minimum_pass_rate_are_kept_per_case(history_url, tmp_path):
    repeats = [["pass", "pass", "fail"], ["fail", "fail", "pass"], ["error", "error", "error"]]
    shards = write_shards(tmp_path, repeats, count=1, min_pass_rate=0.6)
    with _open(history_url) as store:
        [(_, outcome)] = ingest_folders(store, shards)
        run, trends = _runs(store)[outcome.run_id], _trends(store)
    assert run["minPassRate"] == 60.0 and run["repeatsIndependent"] is False
    assert run["repeatDependence"] == "answered by a scripted model"
    cells = {case["key"]: case["statuses"][0] for case in trends["cases"]}
    first = cells["1.1"]["verdict"]
    assert (first["attempts"], first["tries"], first["passes"], first["errors"]) == (3, 3, 2, 0)
    assert first["passRate"] == 66.67 and first["verdict"] == "pass" and first["metRate"] is True
    assert first["flaky"] is True and first["judgeUnstable"] is False
    assert 0 < first["interval"]["low"] < 66.67 < first["interval"]["high"] <= 100
    assert cells["2.1"]["verdict"]["verdict"] == "fail" and cells["2.1"]["verdict"]["metRate"] is False
    never = cells["3.1"]["verdict"]
    assert never["tries"] == 0 and never["passRate"] is None and never["interval"] is None
    assert never["verdict"] == "error" and never["metRate"] is None  # no try: the rate was neither met nor missed


def test_what_a_run_did_not_record_stays_null(history_url, tmp_path):
    write_run(tmp_path / "run", ["pass", "fail"])
    with _open(history_url) as store:
        [(_, outcome)] = ingest_folders(store, [tmp_path / "run"])
        run, trends = _runs(store)[outcome.run_id], _trends(store)
    for key in ("merge", "mergedInto", "minPassRate", "repeatsIndependent", "rateLimitRetries", "platformRunId"):
        assert run[key] is None, key
    cell = trends["cases"][0]["statuses"][0]
    assert cell["verdict"] is None and cell["judgeUnstable"] is None
    assert trends["runs"][0]["agentChanged"] is None


def test_rate_limit_retries_are_counted_and_an_unstable_judge_is_kept_per_case(history_url, tmp_path):
    folder = tmp_path / "run"
    write_run(folder, ["pass", "fail", "pass"])

    def change(data: dict) -> None:
        retry = {"unit": "conversation1#0", "attempt": 1, "cause": "rate_limit", "waitS": 2.0}
        data["execution"] = {
            "executor": "local",
            "concurrency": 4,
            "retries": [
                retry,
                {**retry, "attempt": 2},
                {**retry, "cause": "infrastructure", "unit": "conversation2#0"},
            ],
        }
        data["results"][0]["grades"][0]["judge"] = {"calls": 3, "verdicts": ["pass", "fail", "pass"], "agreement": 0.67}
        data["results"][1]["grades"][0]["judge"] = {"calls": 3, "verdicts": ["fail"] * 3, "agreement": 1.0}

    _edit(folder, change)
    with _open(history_url) as store:
        [(_, outcome)] = ingest_folders(store, [folder])
        run, trends = _runs(store)[outcome.run_id], _trends(store)
    assert run["rateLimitRetries"] == 2 and trends["runs"][0]["rateLimitRetries"] == 2
    unstable = {case["key"]: case["statuses"][0]["judgeUnstable"] for case in trends["cases"]}
    assert unstable == {"1.1": True, "2.1": False, "3.1": None}


def test_trends_mark_the_run_where_the_agent_changed(history_url, tmp_path):
    folders = write_series(tmp_path, [["pass"], ["pass"], ["fail"], ["fail"], ["pass"]])
    agents = ["sha256:a1", "sha256:a1", "sha256:b2", None, "sha256:b2"]
    for folder, agent in zip(folders, agents, strict=True):
        prints = {"testSet": "sha256:set", "graders": "sha256:g"} | ({"agent": agent} if agent else {})
        _edit(folder, lambda data, prints=prints: data.update(fingerprints=prints))
    with _open(history_url) as store:
        ingest_folders(store, folders)
        points = _trends(store)["runs"]
        chart = pass_rate_chart(series_trends(load_series(store, "shop", "shop-agent")), lambda run: None)
    assert [point["agentChanged"] for point in points] == [None, False, True, None, False]
    assert chart.count('class="agent-changed"') == 1 and "the agent changed here" in chart
    assert [point["changed"]["testSet"] for point in points] == [None, False, False, False, False]
    assert points[2]["fingerprints"]["agent"] == "sha256:b2"


def test_a_change_of_graders_starts_a_new_segment_and_is_never_flakiness(history_url, tmp_path):
    # Three cases pass under the old graders and fail under the new ones (stricter), steadily: no flip.
    folders = write_series(tmp_path, [["pass"] * 3, ["pass"] * 3, ["fail"] * 3, ["fail"] * 3, ["pass", "fail", "fail"]])
    graders = ["sha256:old", "sha256:old", "sha256:new", "sha256:new", "sha256:new"]
    for folder, grader in zip(folders, graders, strict=True):
        prints = {"testSet": "sha256:set", "agent": "sha256:a", "graders": grader}
        _edit(folder, lambda data, prints=prints: data.update(fingerprints=prints))
    with _open(history_url) as store:
        ingest_folders(store, folders)
        trends = _trends(store)
        series = series_trends(load_series(store, "shop", "shop-agent"))
        chart = pass_rate_chart(series, lambda run: None)
        console = Console(record=True, width=200)
        print_series(series, console)
    assert [point["segment"] for point in trends["runs"]] == [0, 0, 1, 1, 1]
    assert [point["startsSegment"] for point in trends["runs"]] == [[], [], ["graders"], [], []]
    flakiness = {case["key"]: (case["flips"], case["flakiness"]) for case in trends["cases"]}
    # Case 1 flipped once within the new segment (fail, fail, pass); cases 2 and 3 never flipped.
    assert flakiness == {"1.1": (1, 0.3333), "2.1": (0, 0.0), "3.1": (0, 0.0)}
    assert chart.count('class="segment-start"') == 1 and "a new segment: the graders changed here" in chart
    text = " ".join(console.export_text().split())
    assert f"new segment from run {trends['runs'][2]['run']}: the graders changed" in text


def test_a_database_of_the_first_schema_is_upgraded_and_keeps_its_runs(history_url, tmp_path):
    from alembic import command

    location = resolve_history(history_url)
    assert location is not None
    engine = create_engine(location.url)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            text(
                "INSERT INTO runs (run_key, test_set_name, agent_name, recorded_at, passed, failed, case_count, source) "
                "VALUES ('old', 'shop', 'shop-agent', :now, 3, 1, 4, 'run')"
            ),
            {"now": START},
        )
    engine.dispose()
    write_run(tmp_path / "run", ["pass"], run_at=START + timedelta(days=1))
    with _open(history_url) as store:
        ingest_folders(store, [tmp_path / "run"])
        runs = list_runs(store)
    old = next(run for run in runs if run["run_key"] == "old")
    assert (old["passed"], old["failed"]) == (3, 1)
    assert old["min_pass_rate"] is None and old["merged_into"] is None and old["rate_limit_retries"] is None
    assert len(runs) == 2
