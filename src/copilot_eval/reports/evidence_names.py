"""File names of evidence written for pytest items: one place, used by the fixtures and the test-set items."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def evidence_file_name(nodeid: str, index: int = 0) -> str:
    """A file-system-safe JSON name for the ``index``-th run of the pytest item ``nodeid``."""
    safe = _UNSAFE.sub("_", nodeid).strip("_")
    return f"{safe}{'' if index == 0 else f'-{index}'}.json"


__all__ = ["evidence_file_name"]
