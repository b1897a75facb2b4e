"""Baselines in the history on SQLite and PostgreSQL: blessed, moved only by blessing again, read back, redacted."""

from __future__ import annotations

from copilot_eval.gate import bless_folder
from copilot_eval.history import HistoryStore, resolve_history
from copilot_eval.history.baselines import baseline_json, get_baseline, list_baselines, series_baseline
from copilot_eval.redaction import register_secret
from tests.gate.gate_fixtures import gate_run


def test_a_baseline_is_blessed_moved_and_read_back_on_either_database(tmp_path, history_url, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTOR", "octocat")
    register_secret("sk-baselineNoteSecret0123456789", "NOTE_KEY")
    first = gate_run(tmp_path / "one", ["pass", "fail"], tools={1: ["lookup_order"]})
    second = gate_run(tmp_path / "two", ["pass", "pass"], tools={1: ["lookup_order", "reply"]}, runtime="1.0.103")
    location = resolve_history(history_url)
    assert location is not None
    with HistoryStore.open(location) as store:
        made = bless_folder(store, first, note="key sk-baselineNoteSecret0123456789")
        again = bless_folder(store, first)
        moved = bless_folder(store, second)
        named = bless_folder(store, first, name="release-1")
        found = get_baseline(store, "shop@shop-agent")
        every = list_baselines(store)
        series = series_baseline(store, "shop", "shop-agent")
    assert (made.replaced_run_id, made.run_state) == (None, "stored")
    assert again.replaced_run_id is None and again.run_state == "already stored"  # the same run: nothing moved
    assert moved.replaced_run_id == made.baseline.run_id
    assert found is not None and found.run_id == moved.baseline.run_id and found.runtime_version == "1.0.103"
    assert found.case_steps == {"1.1": ["lookup_order", "reply"], "2.1": []}
    assert [b.name for b in every] == ["release-1", "shop@shop-agent"] and named.baseline.run_id == made.baseline.run_id
    assert series is not None and series.name == "shop@shop-agent"
    document = baseline_json(every[0])
    assert document["blessedBy"] == "octocat" and document["passed"] == 1 and document["failed"] == 1
    assert "sk-baselineNoteSecret" not in str(made.baseline.note)
