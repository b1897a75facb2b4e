"""Per-skill precision and recall over time, read back from the trigger runs the history stored.

The history keeps every finished run folder's path; each trigger run's ``triggers.json`` holds its
per-skill figures and the catalogue as loaded, with a digest of each description. A change of the
catalogue (a skill added or removed, a description edited) starts a new segment: figures on
either side of it measure different descriptions, and are not one trend.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.bounded_json import load_json_object
from copilot_eval.reports.html_triggers import MAX_TRIGGERS_BYTES, TRIGGERS_JSON

__all__ = ["SkillPoint", "catalogue_digest", "skill_history", "trigger_set_series_name"]


def trigger_set_series_name(name: str) -> str:
    """The test-set name a trigger set's runs carry in run.json and in the history."""
    return f"trigger-set:{name}"


def catalogue_digest(catalogue: Iterable[Mapping[str, Any]]) -> str:
    """One digest of the catalogue's names, kinds and description digests (order does not matter)."""
    parts = sorted(f"{e.get('kind')}:{e.get('name')}:{e.get('descriptionSha256')}" for e in catalogue)
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class SkillPoint:
    """One trigger run: when, where, its catalogue segment, and each skill's figures with their counts."""

    run_at: str | None
    run_folder: str
    segment: int
    catalogue: str
    skills: dict[str, dict[str, Any]] = field(default_factory=dict)
    apart: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The point for JSON."""
        return {
            "runAt": self.run_at,
            "runFolder": self.run_folder,
            "segment": self.segment,
            "catalogue": self.catalogue,
            "skills": self.skills,
            "apart": self.apart,
        }


def _document(folder: str | None) -> dict[str, Any] | None:
    if not folder:
        return None
    document = load_json_object(Path(folder) / TRIGGERS_JSON, max_bytes=MAX_TRIGGERS_BYTES)
    return document if document is not None and isinstance(document.get("figures"), dict) else None


def skill_history(runs: Iterable[Mapping[str, Any]]) -> tuple[list[SkillPoint], list[str]]:
    """Points oldest first from stored runs (``run_at``, ``run_folder``), and the folders that could not be read.

    A shard run a stored merged run holds (``merged_into``) is left out: the merged run is its point.
    """
    ordered = sorted(runs, key=lambda run: str(run.get("run_at") or ""))
    points: list[SkillPoint] = []
    unreadable: list[str] = []
    segment, last = 0, None
    for run in ordered:
        if run.get("merged_into") is not None:
            continue  # a shard whose merged run is stored: that run holds its plays, counted once (as trends do)
        document = _document(run.get("run_folder"))
        if document is None:
            unreadable.append(str(run.get("run_folder")))
            continue
        digest = catalogue_digest(document.get("catalogue") or [])
        if last is not None and digest != last:
            segment += 1
        last = digest
        figures = document["figures"]
        skills = {
            s["name"]: {key: s.get(key) for key in ("precision", "recall", "f1", "tp", "fp", "fn")}
            for s in figures.get("skills", [])
            if isinstance(s, dict) and "name" in s
        }
        at = run.get("run_at")
        points.append(
            SkillPoint(
                None if at is None else str(at),
                str(run.get("run_folder")),
                segment,
                digest,
                skills,
                dict(figures.get("apart") or {}),
            )
        )
    return points, unreadable
