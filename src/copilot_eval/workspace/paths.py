"""Path globs over workspace files, and the files the agent read and wrote as its tool records say.

A glob is matched against a file's path relative to the workspace, ``/``-separated: ``*`` stays within
one folder, ``**`` crosses folders, and a glob with no ``/`` matches a file's name in any folder
(``test_*.py`` matches ``tests/unit/test_calc.py``), as ``.gitignore`` reads it.

Files read and written come from the runtime's file tools (``view``, ``grep``, ``glob`` read;
``create``, ``edit`` write): what a ``bash`` command touched is not known from its record, and is not
guessed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.path_globs import glob_regex

READ_TOOLS = frozenset({"view", "read", "read_file", "grep", "glob", "str_replace_editor:view"})
WRITE_TOOLS = frozenset({"create", "edit", "write", "write_file", "str_replace", "apply_patch"})


@functools.lru_cache(maxsize=256)
def _pattern(glob: str) -> re.Pattern[str]:
    glob = glob.strip().removeprefix("./")
    anchored = "/" in glob.rstrip("/")
    if glob.endswith("/"):
        glob += "**"
    body = glob_regex(glob)
    return re.compile(body + r"\Z" if anchored else r"(?:.*/)?" + body + r"\Z")


def matches(path: str, globs: Iterable[str]) -> str | None:
    """The first of ``globs`` that ``path`` matches, or ``None``."""
    return next((g for g in globs if g.strip() and _pattern(g).match(path)), None)


@dataclass(frozen=True)
class FilesTouched:
    """The files the agent read and wrote through its file tools, relative to the workspace where inside it."""

    read: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)


def _relative(raw: Any, workspace: Path) -> str | None:
    if not isinstance(raw, str) or not raw.strip():
        return None
    path = Path(raw)
    if not path.is_absolute():
        return path.as_posix()
    for root in (workspace, workspace.resolve()):
        try:
            return path.relative_to(root).as_posix() or "."
        except ValueError:
            continue
    return path.as_posix()


def files_touched(tool_calls: Sequence[Any], workspace: Path) -> FilesTouched:
    """What ``tool_calls`` (the evidence's ToolCall records) read and wrote, in first-seen order."""
    read: dict[str, None] = {}
    written: dict[str, None] = {}
    for call in tool_calls:
        name, arguments = getattr(call, "name", None), getattr(call, "arguments", None) or {}
        target = read if name in READ_TOOLS else written if name in WRITE_TOOLS else None
        if target is None:
            continue
        path = _relative(arguments.get("path") or arguments.get("file_path"), workspace)
        if path is not None:
            target[path] = None
    return FilesTouched(read=list(read), written=list(written))


__all__ = ["READ_TOOLS", "WRITE_TOOLS", "FilesTouched", "files_touched", "matches"]
