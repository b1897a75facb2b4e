"""Per-skill figures over time from stored trigger runs: oldest first, a new segment where the catalogue changed."""

from __future__ import annotations

import json
from pathlib import Path

from copilot_eval.triggers.history import skill_history


def folder(tmp_path: Path, name: str, description_digest: str, precision: float | None) -> str:
    path = tmp_path / name
    path.mkdir()
    document = {
        "catalogue": [{"name": "pdf", "kind": "skill", "descriptionSha256": description_digest}],
        "figures": {
            "skills": [{"name": "pdf", "precision": precision, "recall": 1.0, "f1": None, "tp": 1, "fp": 0, "fn": 0}],
            "apart": {"error": 1},
        },
    }
    (path / "triggers.json").write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_points_are_ordered_and_a_changed_description_starts_a_segment(tmp_path: Path) -> None:
    runs = [
        {"run_at": "2026-12-03T10:00:00", "run_folder": folder(tmp_path, "c", "bbb", 0.5)},
        {"run_at": "2026-12-01T10:00:00", "run_folder": folder(tmp_path, "a", "aaa", 1.0)},
        {"run_at": "2026-12-02T10:00:00", "run_folder": folder(tmp_path, "b", "aaa", None)},
        {"run_at": "2026-12-04T10:00:00", "run_folder": str(tmp_path / "gone")},
    ]
    points, unreadable = skill_history(runs)
    assert [(p.run_at, p.segment, p.skills["pdf"]["precision"]) for p in points] == [
        ("2026-12-01T10:00:00", 0, 1.0),
        ("2026-12-02T10:00:00", 0, None),  # unknown stays unknown
        ("2026-12-03T10:00:00", 1, 0.5),  # the description changed: not the same trend
    ]
    assert points[0].apart == {"error": 1} and unreadable == [str(tmp_path / "gone")]


def test_a_shard_held_by_a_stored_merged_run_is_no_point_of_its_own(tmp_path: Path) -> None:
    runs = [
        {"run_at": "2026-12-01T10:00:00", "run_folder": folder(tmp_path, "s1", "aaa", 1.0), "merged_into": 3},
        {"run_at": "2026-12-01T10:00:01", "run_folder": folder(tmp_path, "s2", "aaa", 0.0), "merged_into": 3},
        {"run_at": "2026-12-01T10:05:00", "run_folder": folder(tmp_path, "merged", "aaa", 0.5), "merged_into": None},
    ]
    points, _ = skill_history(runs)
    assert [p.skills["pdf"]["precision"] for p in points] == [0.5], "the merged run counts its shards once"
