"""Looking for a canary's secret forms in text and in the files a run left: the canary tests' search."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from copilot_eval.runtime.process.home import sessions_dir


def leaks(forms: Iterable[str], text: str) -> list[str]:
    """The forms found in ``text``, sorted (empty: nothing leaked)."""
    return sorted(form for form in forms if form in text)


def leaking_files(forms: Iterable[str], *roots: Path, since: float = 0.0) -> dict[str, list[str]]:
    """Files below ``roots`` changed at or after ``since`` that hold any of ``forms``: path -> forms found."""
    forms = tuple(forms)
    found = {}
    # os.walk, and a file that vanishes mid-search skipped: other runs clean their homes meanwhile.
    for root in roots:
        for folder, _dirs, names in os.walk(root):
            for name in names:
                path = Path(folder) / name
                try:
                    if path.stat().st_mtime < since:
                        continue
                    held = leaks(forms, path.read_text(encoding="utf-8", errors="replace"))
                except OSError:
                    continue
                if held:
                    found[str(path)] = held
    return found


__all__ = ["leaking_files", "leaks", "sessions_dir"]
