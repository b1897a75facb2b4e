"""The working directories runs keep in the temporary directory, and which of them are still in use.

Every run without an explicit ``working_directory`` works in a fresh ``copilot-eval-run-*`` folder
(A/B runs: ``copilot-eval-ab-*``; the quickstart's output without ``--out``: ``copilot-eval-quickstart-*``),
kept after the run so that assertions and people can read what
the agent wrote. A folder is in use while the process that made it lives: beside it a marker
``<folder>.running`` names that process, written when the folder is made and removed when the
process ends. `copilot-eval clean` removes only folders that are not in use and belong to the user
running it; a process killed outright leaves its marker behind, naming a process that no longer runs,
so its folders count as finished.

A leaf module: the runtime makes the folders, the command line cleans them.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path

QUICKSTART_PREFIX = "copilot-eval-quickstart-"
PREFIXES = ("copilot-eval-run-", "copilot-eval-ab-", QUICKSTART_PREFIX)
MARKER_SUFFIX = ".running"

_made_here: set[Path] = set()  # the markers this process wrote and has not removed


def marker_of(folder: Path) -> Path:
    """The marker beside ``folder`` that says which process uses it."""
    return folder.with_name(folder.name + MARKER_SUFFIX)


def new_working_directory(prefix: str = PREFIXES[0]) -> Path:
    """A fresh folder in the temporary directory, marked in use by this process until it ends."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    marker = marker_of(folder)
    marker.write_text(f"{os.getpid()}\n", encoding="utf-8")
    _made_here.add(marker)
    return folder


def _remove_own_markers() -> None:
    """Exit hook: this process's folders are no longer in use (they stay, for people to read)."""
    for marker in list(_made_here):
        try:
            marker.unlink(missing_ok=True)
        except OSError:
            pass
        _made_here.discard(marker)


atexit.register(_remove_own_markers)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` is alive (another user's live process counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def user_of_process(folder: Path) -> int | None:
    """The pid of the live process using ``folder``, or ``None`` when no live process does."""
    try:
        text = marker_of(folder).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not text.isdigit():
        return None
    pid = int(text)
    return pid if process_alive(pid) else None


def is_ours(path: Path) -> bool:
    """Only folders this tool names, directly in the temporary directory, are ever removed."""
    return path.name.startswith(PREFIXES) and path.parent.resolve() == Path(tempfile.gettempdir()).resolve()


def _owned_by_me(path: Path) -> bool:
    getuid = getattr(os, "getuid", None)
    try:
        return getuid is None or path.stat().st_uid == getuid()
    except OSError:
        return False


def kept_working_directories(older_than_s: float = 0.0) -> list[Path]:
    """The run folders in the temporary directory untouched for at least ``older_than_s`` (in use or not)."""
    now = time.time()
    found = []
    for prefix in PREFIXES:
        for path in Path(tempfile.gettempdir()).glob(f"{prefix}*"):
            try:
                if path.is_dir() and not path.is_symlink() and now - path.stat().st_mtime >= older_than_s:
                    found.append(path)
            except OSError:
                continue
    return sorted(found)


def why_kept(path: Path) -> str | None:
    """Why `clean` must leave ``path`` alone (in use, another user's), or ``None`` when it may go."""
    if not _owned_by_me(path):
        return "another user's"
    pid = user_of_process(path)
    if pid is not None:
        return f"in use by process {pid}"
    return None


def remove_working_directory(path: str | Path) -> bool:
    """Remove one finished run folder of ours (and its marker); whether it was removed."""
    folder = Path(path)
    if not is_ours(folder) or not folder.is_dir() or why_kept(folder) == "another user's":
        return False
    shutil.rmtree(folder, ignore_errors=True)
    if not folder.exists():
        marker = marker_of(folder)
        try:
            marker.unlink(missing_ok=True)
        except OSError:
            pass
        _made_here.discard(marker)
    return not folder.exists()


__all__ = [
    "MARKER_SUFFIX",
    "PREFIXES",
    "QUICKSTART_PREFIX",
    "is_ours",
    "kept_working_directories",
    "marker_of",
    "new_working_directory",
    "process_alive",
    "remove_working_directory",
    "user_of_process",
    "why_kept",
]
