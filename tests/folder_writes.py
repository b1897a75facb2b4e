"""Who wrote each file of a run folder: a recorder of every write a command makes, for the one-writer tests.

Every file copilot-eval writes goes through ``atomic_write`` (a temporary file renamed over the
target), so the recorder watches the rename (``os.replace``) and notes, for each target, whether
the finisher (``runs.finish.finish_run_folders``) was on the stack. A file in the folder that no
rename produced was written some other way, which is a finding too.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.runs.finish import finish_run_folders

FINISHER = finish_run_folders.__code__


def _finisher_on_stack() -> bool:
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code is FINISHER:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


@dataclass
class Writes:
    """Every file written while recording: by whom (True: the finisher), in order."""

    by_path: dict[Path, list[bool]] = field(default_factory=lambda: defaultdict(list))
    order: list[Path] = field(default_factory=list)

    def in_order(self, folder: Path) -> list[Path]:
        """The files written into ``folder`` or below it, in the order written, outside the engine's own files."""
        folder = folder.resolve()
        return [p for p in self.order if p.is_relative_to(folder) and not _engines(p, folder)]

    def last_in(self, folder: Path) -> Path | None:
        """The last file written into ``folder`` or below it, outside the engine's own files."""
        inside = self.in_order(folder)
        return inside[-1] if inside else None

    def late(self, folder: Path, firsts: tuple[str, ...], then: str) -> list[str]:
        """Each of ``firsts`` (names in ``folder``) written after ``then``: a reader of it would have missed it."""
        names = [p.relative_to(folder.resolve()).as_posix() for p in self.in_order(folder)]
        if then not in names:
            return []
        return [f"{name}: written after {then}" for name in firsts if name in names[names.index(then) :]]

    def problems(self, root: Path, *, also: tuple[Path, ...] = ()) -> list[str]:
        """Each file under ``root`` (and each of ``also``) written other than once by the finisher."""
        problems = []
        files = [p for p in root.rglob("*") if p.is_file()] + [p for p in also if p.is_file()]
        for path in sorted(files):
            if _engines(path, root):
                continue
            writes = self.by_path.get(path.resolve(), [])
            name = path.relative_to(root) if path.is_relative_to(root) else path
            if not writes:
                problems.append(f"{name}: written by something else than the atomic writer")
            elif len(writes) > 1:
                problems.append(f"{name}: written {len(writes)} times")
            elif not writes[0]:
                problems.append(f"{name}: written outside the finisher")
        return problems


def _engines(path: Path, root: Path) -> bool:
    """The engine's own files: evidence (the ``evidence/`` folder, or a file run.json lists as its evidence), the checkpoint."""
    folder = next((p for p in [path.parent, *path.parents] if (p / LAYOUT.run_json).is_file()), None)
    if folder is None or not folder.is_relative_to(root):
        return False
    relative = path.relative_to(folder)
    if relative.parts[0] in (LAYOUT.evidence, LAYOUT.environments) or relative.as_posix() == LAYOUT.checkpoint:
        return True
    listed = json.loads((folder / LAYOUT.run_json).read_text(encoding="utf-8")).get("evidence") or []
    return relative.as_posix() in listed or relative.parts[0] in {Path(item).parts[0] for item in listed if "/" in item}


@contextmanager
def recorded_writes() -> Iterator[Writes]:
    """Record every rename into place (the atomic writer's last step) while the block runs."""
    writes = Writes()
    real = os.replace

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        real(src, dst, *args, **kwargs)
        writes.by_path[Path(dst).resolve()].append(_finisher_on_stack())
        writes.order.append(Path(dst).resolve())

    os.replace = replace  # type: ignore[assignment]
    try:
        yield writes
    finally:
        os.replace = real  # type: ignore[assignment]
