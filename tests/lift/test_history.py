"""A customization's lift over time from the stored arm runs: one point per lift folder, unreadable ones named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from copilot_eval.lift import history
from copilot_eval.lift.history import lift_history


def lift_folder(tmp_path: Path, name: str, document: object) -> Path:
    """A lift folder holding ``document`` as its lift.json, with the two arms' folders below it."""
    folder = tmp_path / name
    for arm in ("with", "without"):
        (folder / arm).mkdir(parents=True)
    (folder / "lift.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def lift_document(skill: str, difference: float) -> dict[str, object]:
    """A lift.json whose treatment arm ``with`` differs by the skill ``skill``."""
    text = {"kind": "skill-body", "name": skill, "sha256": "ab12", "mustReachModel": True}
    return {
        "control": "without",
        "treatment": "with",
        "arms": [{"name": "with", "customizations": [text]}, {"name": "without", "customizations": []}],
        "figures": {"difference": difference, "interval95": [0.1, 0.3], "verdict": "lift"},
    }


def arm_runs(folder: Path, run_at: str) -> list[dict[str, str]]:
    """The two stored arm runs of a lift folder, as the history lists them."""
    return [{"run_at": run_at, "run_folder": str(folder / arm)} for arm in ("with", "without")]


def test_one_point_per_lift_folder_oldest_first_and_unreadable_ones_named(tmp_path: Path) -> None:
    later = lift_folder(tmp_path, "later", lift_document("pdf", 0.2))
    earlier = lift_folder(tmp_path, "earlier", lift_document("pdf", 0.1))
    broken = lift_folder(tmp_path, "broken", ["not", "an", "object"])
    no_figures = lift_folder(tmp_path, "no-figures", {"treatment": "with"})
    (tmp_path / "plain" / "run").mkdir(parents=True)  # a run of the same set made by `run`: no lift.json above it
    runs = [
        *arm_runs(later, "2026-12-03T10:00:00"),
        *arm_runs(earlier, "2026-12-01T10:00:00"),
        *arm_runs(broken, "2026-12-02T10:00:00"),
        *arm_runs(no_figures, "2026-12-02T11:00:00"),
        {"run_at": "2026-12-04T10:00:00", "run_folder": str(tmp_path / "plain" / "run")},
    ]
    points, unreadable = lift_history(runs)
    assert [(p.folder, p.difference, p.interval) for p in points] == [
        (str(earlier), 0.1, (0.1, 0.3)),
        (str(later), 0.2, (0.1, 0.3)),
    ]
    assert points[0].customizations == [{"kind": "skill-body", "name": "pdf", "sha256": "ab12"}]
    assert unreadable == [str(broken), str(no_figures)]


def test_a_name_keeps_the_lifts_of_that_customization(tmp_path: Path) -> None:
    pdf = lift_folder(tmp_path, "pdf", lift_document("pdf", 0.2))
    docx = lift_folder(tmp_path, "docx", lift_document("docx", 0.1))
    runs = [*arm_runs(pdf, "2026-12-01T10:00:00"), *arm_runs(docx, "2026-12-02T10:00:00")]
    points, _ = lift_history(runs, name="docx")
    assert [p.folder for p in points] == [str(docx)]


def test_a_lift_json_over_the_size_bound_is_named_unreadable_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = lift_folder(tmp_path, "big", lift_document("pdf", 0.2))
    monkeypatch.setattr(history, "MAX_LIFT_BYTES", (folder / "lift.json").stat().st_size - 1)
    monkeypatch.setattr(Path, "read_bytes", lambda *a: pytest.fail("the file was read"))
    assert lift_history(arm_runs(folder, "2026-12-01T10:00:00")) == ([], [str(folder)])
