"""The store on SQLite and on a real PostgreSQL server: what a run leaves, stored once, migrated, kept secret-free."""

from __future__ import annotations

import shutil
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, text

from copilot_eval import redaction
from copilot_eval.evalsets import LimitationStanding, RunFingerprints, ShardInfo
from copilot_eval.evalsets.json_io import read_run_json
from copilot_eval.history import HistoryError, HistoryStore, list_runs, resolve_history
from copilot_eval.history.from_folder import record_from_folder
from copilot_eval.history.ingest import ingest_folders
from copilot_eval.history.provenance import Provenance
from copilot_eval.history.queries import run_results
from copilot_eval.history.records import SOURCE_INGEST, CaseRecord, to_row
from copilot_eval.history.schema import HEAD_REVISION, alembic_config
from copilot_eval.history.tables import Base, Case, CaseResult
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs import confirm_limitation
from tests.history.history_fixtures import MODEL, START, shop_set, write_run


def _open(url: str) -> HistoryStore:
    location = resolve_history(url)
    assert location is not None
    return HistoryStore.open(location)


def _results(store: HistoryStore) -> list[dict]:
    [run] = list_runs(store)
    return [{**row, "key": row["case_key"]} for row in run_results(store, run["id"])]


def test_a_run_folder_is_stored_once_with_everything_it_recorded(history_url, tmp_path):
    folder = tmp_path / "run"
    write_run(folder, ["pass", "fail", "error", ["pass", "fail"]])
    with _open(history_url) as store:
        [(_, first)] = ingest_folders(store, [folder])
        [(_, again)] = ingest_folders(store, [folder])
        moved = tmp_path / "copied-elsewhere"
        shutil.copytree(folder, moved)
        [(_, copy)] = ingest_folders(store, [moved])
        assert (first.state, again.state, copy.state) == ("stored", "already stored", "already stored")
        assert first.run_id == again.run_id == copy.run_id
        [run] = list_runs(store)
        results = _results(store)
    assert (run["test_set_name"], run["agent_name"], run["agent_model"]) == ("shop", "shop-agent", MODEL)
    assert run["run_at"] == START and run["duration_ms"] == 1234.5 and run["case_count"] == 5
    assert (run["passed"], run["failed"], run["errored"], run["not_graded"]) == (2, 2, 1, 0)
    assert run["confidence"] == "CONFIRMED" and run["source"] == SOURCE_INGEST
    assert run["run_folder"] == str(folder.resolve())
    assert [(r["key"], r["repeat_index"], r["status"]) for r in results] == [
        ("1.1", 0, "pass"),
        ("2.1", 0, "fail"),
        ("3.1", 0, "error"),
        ("4.1", 0, "pass"),
        ("4.1", 1, "fail"),
    ]
    failed = results[1]
    assert failed["reason"] == "case 2: fail" and failed["score"] == 0.2 and failed["duration_ms"] == 1002.0
    assert failed["session_tokens"] == 500 and failed["session_premium_requests"] == 1.0
    assert failed["evidence_path"] == "evidence/case2-r0.json" and failed["report_anchor"] == "case-2-r0"
    assert results[2]["score"] is None  # an error has no grader score; it is not 0


def test_what_was_not_recorded_stays_null(history_url, tmp_path):
    folder = tmp_path / "run"
    write_run(folder, ["pass", "fail"], tokens=None, evidence=False, agent=None)
    with _open(history_url) as store:
        ingest_folders(store, [folder])
        [run] = list_runs(store)
        results = run_results(store, run["id"])
    assert run["agent_name"] is None and run["agent_model"] is None
    assert run["git_commit"] is None and run["git_branch"] is None and run["ci_run_url"] is None
    assert run["test_set_fingerprint"] is None and run["shard_index"] is None and run["shard_count"] is None
    assert run["report_path"] is None  # no report.html was written in that folder
    assert {row["session_tokens"] for row in results} == {None}
    assert {row["evidence_path"] for row in results} == {None}


def test_a_limitation_confirmed_later_updates_the_run_instead_of_storing_it_twice(history_url, tmp_path):
    folder = tmp_path / "run"
    limitation = "every answer is the same fallback text"
    write_run(folder, ["fail", "fail"], limitation=limitation, standing=LimitationStanding.SUSPECTED)
    with _open(history_url) as store:
        [(_, first)] = ingest_folders(store, [folder])
        run = read_run_json(folder / "run.json")
        confirmed = confirm_limitation(run, by="surface preview answered the same 2 questions well")
        write_run_outputs(confirmed, shop_set(2), folder)
        [(_, second)] = ingest_folders(store, [folder])
        [stored] = list_runs(store)
    assert (first.state, second.state, first.run_id) == ("stored", "updated", second.run_id)
    # The standing and what confirmed it are fields (run.json schemaVersion 2); the text stays as it was.
    assert stored["limitation_standing"] == "confirmed" and stored["runtime_limitation"] == limitation
    assert stored["limitation_confirmed_by"] == ["surface preview answered the same 2 questions well"]


def test_fingerprints_shard_and_provenance_are_stored_when_the_run_records_them(history_url, tmp_path):
    # A shard's run.json records the fingerprints of its inputs and which shard it played (`run --shard I/N`).
    write_run(tmp_path / "run", ["pass"])
    folder = read_run_folder(tmp_path / "run")
    newer = folder.run.model_copy(
        update={
            "fingerprints": RunFingerprints(test_set="sha256:set", agent="sha256:agent", graders="sha256:graders"),
            "shard": ShardInfo(index=1, count=4),
        }
    )
    provenance = Provenance("0123456789abcdef", "main", "https://ci.example.invalid/runs/7")
    record = record_from_folder(
        type(folder)(folder.folder, newer, folder.test_set), source=SOURCE_INGEST, provenance=provenance
    )
    with _open(history_url) as store:
        store.add(record)
        [run] = list_runs(store)
    assert (run["test_set_fingerprint"], run["agent_fingerprint"], run["graders_fingerprint"]) == (
        "sha256:set",
        "sha256:agent",
        "sha256:graders",
    )
    assert (run["shard_index"], run["shard_count"]) == (1, 4)
    assert (run["git_commit"], run["git_branch"], run["ci_run_url"]) == (
        "0123456789abcdef",
        "main",
        "https://ci.example.invalid/runs/7",
    )


@pytest.fixture
def canary(monkeypatch):
    """A registered secret, forgotten again after the test (the registry is process-wide)."""
    monkeypatch.setattr(redaction, "_secrets", {})
    monkeypatch.setattr(redaction, "_known_forms", ())
    monkeypatch.setattr(redaction, "_pattern", None)
    secret = "CANARY-history-key-5f1e0c9a"
    redaction.register_secret(secret, "HISTORY_CANARY")
    return secret


def test_no_registered_secret_reaches_the_database(history_url, tmp_path, canary):
    folder = tmp_path / "run"
    write_run(folder, ["fail"])
    run = read_run_json(folder / "run.json")
    # A secret that slipped into what the agent said and into the grader's reason (run.json itself is
    # written redacted, so it is put in the model the store reads, as a careless caller would).
    leaked = run.model_copy(
        update={
            "results": [
                run.results[0].model_copy(update={"failure_reason": f"echoed {canary}", "actual_response": canary})
            ],
            "note": f"note with {canary}",
        }
    )
    folder_read = read_run_folder(folder)
    with _open(history_url) as store:
        store.add(record_from_folder(type(folder_read)(folder, leaked, folder_read.test_set), source="ingest"))
        with store.engine.connect() as connection:
            reason = connection.execute(select(CaseResult.__table__.c.reason)).scalar()
            note = connection.execute(text("SELECT note FROM runs")).scalar()
    assert reason == "echoed [redacted:HISTORY_CANARY]" and note == "note with [redacted:HISTORY_CANARY]"
    if history_url.startswith("sqlite"):
        assert canary.encode() not in Path(history_url.removeprefix("sqlite:///")).read_bytes()


def test_reading_a_history_that_does_not_exist_creates_nothing(tmp_path):
    location = resolve_history(str(tmp_path / "none" / "history.db"))
    with pytest.raises(HistoryError, match=r"no history database at .*none/history.db \(nothing recorded yet"):
        HistoryStore.open(location, create=False)
    assert not (tmp_path / "none").exists()


def test_the_tables_are_what_the_newest_migration_makes(history_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [HEAD_REVISION]
    with _open(history_url) as store, store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert differences == [] and revision == HEAD_REVISION


def test_a_row_is_filled_from_the_fields_of_the_same_name_and_a_column_without_a_source_fails():
    case = CaseRecord(key="1.1", status="pass", repeat_index=2, session_tokens=None, evidence_path="evidence/1.json")
    row = to_row(case, CaseResult.__table__, run_id=7, case_id=3)
    assert set(row) == {column.name for column in CaseResult.__table__.columns} - {"id"}  # the database makes the id
    assert (row["run_id"], row["case_id"], row["repeat_index"], row["session_tokens"]) == (7, 3, 2, None)
    assert (row["status"], row["evidence_path"]) == ("pass", "evidence/1.json")
    with pytest.raises(AttributeError, match="case_id"):
        to_row(case, CaseResult.__table__, run_id=7)  # no field and not given: refused, not stored as NULL


def test_a_database_migrated_by_a_newer_copilot_eval_is_refused(history_url):
    with _open(history_url) as store, store.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    location = resolve_history(history_url)
    with pytest.raises(HistoryError, match="schema revision 9999, newer than this copilot-eval knows"):
        HistoryStore.open(location)


def test_two_writers_adding_runs_of_a_new_set_at_once_both_succeed(history_url, tmp_path):
    folders = [tmp_path / f"run-{n}" for n in range(2)]
    for n, folder in enumerate(folders):
        write_run(folder, ["pass", "fail", "pass"], run_at=START + timedelta(minutes=n))
    gate, outcomes = threading.Barrier(2), []

    def add(folder: Path) -> None:
        with _open(history_url) as store:
            gate.wait()
            outcomes.extend(outcome for _, outcome in ingest_folders(store, [folder]))

    threads = [threading.Thread(target=add, args=(folder,)) for folder in folders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(o.state for o in outcomes) == ["stored", "stored"]
    with _open(history_url) as store, store.engine.connect() as connection:
        keys = connection.execute(select(Case.__table__.c.case_key)).scalars().all()
    assert sorted(keys) == ["1.1", "2.1", "3.1"]  # each case once, whichever writer made it
