"""A customization's lift over time, read back from the lift runs the history stored.

The history keeps each arm's run folder; the lift folder above it holds ``lift.json`` with the
figures and each arm's texts by hash. One point per lift folder, oldest first; a change of a
text's hash (the skill edited between runs) shows in the point's ``customizations``, so a trend
across it is not mistaken for one customization's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.bounded_json import load_json_object
from copilot_eval.lift.record import LIFT_JSON

__all__ = ["MAX_LIFT_BYTES", "LiftPoint", "lift_history"]

MAX_LIFT_BYTES = 20_000_000


@dataclass(frozen=True)
class LiftPoint:
    """One lift run: when, where, its arms, its figures and the treatment's customization texts by hash."""

    run_at: str | None
    folder: str
    control: str
    treatment: str
    difference: float | None
    interval: tuple[float, float] | None
    verdict: str
    customizations: list[dict[str, str]] = field(default_factory=list)

    def names(self) -> set[str]:
        """The names of the customizations that tell this run's arms apart (skill names, file paths)."""
        return {item["name"] for item in self.customizations}

    def to_dict(self) -> dict[str, Any]:
        """The point for JSON."""
        return {
            "runAt": self.run_at,
            "folder": self.folder,
            "control": self.control,
            "treatment": self.treatment,
            "difference": self.difference,
            "interval95": list(self.interval) if self.interval is not None else None,
            "verdict": self.verdict,
            "customizations": self.customizations,
        }


def _document(folder: Path) -> dict[str, Any] | None:
    document = load_json_object(folder / LIFT_JSON, max_bytes=MAX_LIFT_BYTES)
    return document if document is not None and isinstance(document.get("figures"), dict) else None


def _point(run_at: Any, folder: Path, document: dict[str, Any]) -> LiftPoint:
    figures = document["figures"]
    treatment = str(document.get("treatment"))
    arm = next((a for a in document.get("arms") or [] if isinstance(a, dict) and a.get("name") == treatment), {})
    texts = [
        {"kind": str(t.get("kind")), "name": str(t.get("name")), "sha256": str(t.get("sha256"))}
        for t in arm.get("customizations") or []
        if isinstance(t, dict) and t.get("mustReachModel")
    ]
    interval = figures.get("interval95")
    return LiftPoint(
        None if run_at is None else str(run_at),
        str(folder),
        str(document.get("control")),
        treatment,
        figures.get("difference"),
        (float(interval[0]), float(interval[1])) if isinstance(interval, list) and len(interval) == 2 else None,
        str(figures.get("verdict")),
        texts,
    )


def lift_history(runs: Iterable[Mapping[str, Any]], *, name: str | None = None) -> tuple[list[LiftPoint], list[str]]:
    """Points oldest first from stored arm runs (``run_at``, ``run_folder``), and the folders that could not be read.

    ``name`` keeps the runs whose arms differ by that customization (a skill's name, a file's path).
    """
    ordered = sorted(runs, key=lambda run: str(run.get("run_at") or ""))
    seen: set[Path] = set()
    points: list[LiftPoint] = []
    unreadable: list[str] = []
    for run in ordered:
        arm_folder = run.get("run_folder")
        if not arm_folder:
            continue
        folder = Path(str(arm_folder)).parent
        if folder in seen:
            continue
        seen.add(folder)
        if not (folder / LIFT_JSON).exists():
            continue  # a run of the same set made by `run`, not one arm of a lift
        document = _document(folder)
        if document is None:
            unreadable.append(str(folder))
            continue
        point = _point(run.get("run_at"), folder, document)
        if name is None or name in point.names():
            points.append(point)
    return points, unreadable
