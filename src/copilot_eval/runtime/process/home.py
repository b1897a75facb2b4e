"""Where copilot-eval keeps its own files: the runtime install, the shared asset cache, and the
COPILOT_HOME folders of runtimes and sessions (created here, removed here, swept when stale)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from copilot_eval.cache_root import cache_root
from copilot_eval.workdirs import process_alive

# A folder without an owner pid in its name (made by an older version) counts as stale after this.
UNOWNED_STALE_AFTER_S = 24 * 3600
_OWNED = re.compile(r"^home-(\d+)-")


def runtime_install_dir(version: str) -> Path:
    """Folder that `npm install` fills with one runtime version."""
    return cache_root() / "runtime" / version


def asset_cache_dir() -> Path:
    """XDG cache shared by every runtime process: the runtime unpacks 235 MiB there once
    (runtime 1.0.102; its npm install beside it is 189 MiB)."""
    return cache_root() / "xdg-cache"


def sessions_dir() -> Path:
    """Parent of the COPILOT_HOME folders of runtimes and runs (each run's is about 0.5 MB)."""
    return cache_root() / "sessions"


def new_copilot_home() -> Path:
    """A fresh COPILOT_HOME folder for one runtime or one session, named after this process so a
    later process can tell a leftover of a dead one (``home-<pid>-...``) from a live one's."""
    parent = sessions_dir()
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"home-{os.getpid()}-", dir=parent))


def remove_home(path: Path | None) -> None:
    """Remove a COPILOT_HOME folder; a folder already gone is fine."""
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)


def sweep_stale_homes(parent: Path | None = None, *, now: float | None = None) -> int:
    """Remove COPILOT_HOME folders left behind by processes that no longer run; return how many.

    A Python process killed outright cannot remove its folders; the next one does. Folders of
    live processes are never touched; unowned (old-style) folders only once a day old.
    """
    parent = parent or sessions_dir()
    if not parent.is_dir():
        return 0
    now = time.time() if now is None else now
    removed = 0
    for entry in parent.iterdir():
        if not entry.is_dir() or not entry.name.startswith("home-"):
            continue
        owner = _OWNED.match(entry.name)
        if owner is not None:
            stale = int(owner.group(1)) != os.getpid() and not process_alive(int(owner.group(1)))
        else:
            try:
                stale = now - entry.stat().st_mtime > UNOWNED_STALE_AFTER_S
            except OSError:
                continue
        if stale:
            remove_home(entry)
            removed += 1
    return removed
