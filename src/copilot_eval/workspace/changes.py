"""What changed in a workspace: a manifest of its files before the agent, the changes after, the patch.

A manifest maps each file's path (relative, ``/``-separated) to a digest of its content (a symbolic
link to ``link:TARGET``). Version-control and cache folders (``.git``, ``__pycache__``,
``.pytest_cache`` ...) are left out: the agent's running of tests or ``git`` must not read as a change
it made. The patch is a unified diff from the fixture to what the agent left, ``git apply`` style;
a binary file (a NUL byte, or not UTF-8) is named, never printed.
"""

from __future__ import annotations

import difflib
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

IGNORED_FOLDERS = frozenset({".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
MAX_PATCH_FILE_BYTES = 1024 * 1024  # a larger text file is named as changed, not diffed

Manifest = dict[str, str]


def manifest(root: Path) -> Manifest:
    """Every file under ``root`` (ignored folders left out) with a digest of its content."""
    found: Manifest = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_FOLDERS)
        rel_folder = Path(folder).relative_to(root)
        for name in files + [d for d in dirs if (Path(folder) / d).is_symlink()]:
            path = Path(folder) / name
            rel = (rel_folder / name).as_posix()
            if path.is_symlink():
                found[rel] = f"link:{os.readlink(path)}"
            elif path.is_file():
                found[rel] = _digest(path)
    return found


def _digest(path: Path) -> str:
    hasher = hashlib.blake2b(digest_size=16)
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            hasher.update(chunk)
    return hasher.hexdigest()


@dataclass(frozen=True)
class Changes:
    """The files added, removed and changed between two manifests, each sorted."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    @property
    def touched(self) -> list[str]:
        """Every path that differs, sorted."""
        return sorted({*self.added, *self.removed, *self.changed})


def compare(before: Manifest, after: Manifest) -> Changes:
    """What differs from ``before`` to ``after``."""
    return Changes(
        added=sorted(set(after) - set(before)),
        removed=sorted(set(before) - set(after)),
        changed=sorted(p for p in set(before) & set(after) if before[p] != after[p]),
    )


def _text(path: Path) -> list[str] | None:
    """The file's lines, or ``None`` when it is binary (or too large to diff)."""
    if path.is_symlink():
        return [f"link to {os.readlink(path)}\n"]
    if path.stat().st_size > MAX_PATCH_FILE_BYTES:
        return None
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return None


def _file_patch(rel: str, old: Path | None, new: Path | None) -> str:
    head = [f"diff --git a/{rel} b/{rel}\n"]
    if old is None:
        head.append("new file mode 100644\n")
    if new is None:
        head.append("deleted file mode 100644\n")
    old_lines = _text(old) if old is not None else []
    new_lines = _text(new) if new is not None else []
    if old_lines is None or new_lines is None:
        left = f"a/{rel}" if old is not None else "/dev/null"
        right = f"b/{rel}" if new is not None else "/dev/null"
        large = any(
            p is not None and not p.is_symlink() and p.stat().st_size > MAX_PATCH_FILE_BYTES for p in (old, new)
        )
        note = f"# larger than {MAX_PATCH_FILE_BYTES} bytes: named, not diffed\n" if large else ""
        return "".join(head) + note + f"Binary files {left} and {right} differ\n"
    body = []
    for line in difflib.unified_diff(
        old_lines,
        new_lines,
        fromfile=f"a/{rel}" if old is not None else "/dev/null",
        tofile=f"b/{rel}" if new is not None else "/dev/null",
    ):
        body.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(head + body)


def unified_patch(fixture: Path, before: Manifest, workspace: Path, changes: Changes) -> str:
    """The patch from the fixture to ``workspace``; a file setup changed before the agent is named, not diffed."""
    parts = []
    for rel in changes.touched:
        old = fixture / rel if rel in before else None
        if old is not None and ((not old.exists() and not old.is_symlink()) or manifest_entry(old) != before[rel]):
            parts.append(
                f"diff --git a/{rel} b/{rel}\n# changed by the setup commands; only the agent's version kept\n"
            )
            old = None
        new = workspace / rel if (workspace / rel).exists() or (workspace / rel).is_symlink() else None
        parts.append(_file_patch(rel, old, new))
    return "".join(parts)


def manifest_entry(path: Path) -> str:
    """The manifest's entry for one file."""
    return f"link:{os.readlink(path)}" if path.is_symlink() else _digest(path)


__all__ = ["IGNORED_FOLDERS", "Changes", "Manifest", "compare", "manifest", "manifest_entry", "unified_patch"]
