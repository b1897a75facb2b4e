"""Names and stored paths from other people's files, made safe to use as paths: the one rule for each.

Two things from outside become paths. A *name* (a test set's or suite's ``name:``, an agent's
name, a pytest node id, a file name a server sends) becomes one component of a path: folder and
file names. ``path_component`` keeps letters, digits, ``.``, ``_`` and ``-``, turns every other run
of characters into one separator, never yields ``.``/``..`` or a hidden name, and caps the length
(``MAX_COMPONENT``; a longer name is cut and ends in 8 hex digits of its hash, so two long names
stay apart), so a ``name: ../../x`` cannot place a folder elsewhere and a 300-character name cannot
exceed the file system's 255 bytes.

A *stored path* (an evidence path in a run folder's ``run.json``) names a file of that folder.
``inside_folder`` resolves it against the folder, symbolic links followed, and refuses with
``OutsideFolder`` anything that lands outside: an absolute path elsewhere, ``../``, a link out. A
downloaded CI artifact is read, never trusted to point at the reader's own files.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

#: The longest path component made from a name (well under the 255 bytes of common file systems,
#: leaving room for the suffixes and timestamps callers add).
MAX_COMPONENT = 100

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def path_component(name: str, *, fallback: str, separator: str = "-", max_length: int = MAX_COMPONENT) -> str:
    """``name`` as one safe path component (see the module docstring); ``fallback`` when nothing is left."""
    safe = _UNSAFE.sub(separator, name).strip(separator + ".")
    safe = safe.lstrip("-.") or fallback  # never hidden, never an option-like leading dash, never . or ..
    if len(safe) > max_length:
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        safe = f"{safe[: max_length - 9].rstrip(separator + '.')}{separator}{digest}"
    return safe


class OutsideFolder(ValueError):
    """A stored path that leads outside the folder whose file stored it."""


def inside_folder(folder: Path, stored: str) -> Path:
    """The path ``stored`` names, relative to ``folder`` (or absolute into it), resolved; refused outside it."""
    base = folder.resolve()
    try:
        path = Path(stored)
        resolved = (path if path.is_absolute() else base / path).resolve()
    except (OSError, ValueError):  # a NUL byte, a loop of links
        raise OutsideFolder(f"{stored!r} is not a usable path in the folder {folder}: not followed") from None
    if not resolved.is_relative_to(base):
        raise OutsideFolder(
            f"{stored!r} leads outside the folder {folder} (an absolute path elsewhere, '..' or a link out): "
            "not followed; a run folder's paths name its own files"
        )
    return resolved


__all__ = ["MAX_COMPONENT", "OutsideFolder", "inside_folder", "path_component"]
