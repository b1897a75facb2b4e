"""Where copilot-eval keeps its own files: the runtime install and the shared asset cache."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

HOME_ENV = "COPILOT_EVAL_HOME"


def eval_home() -> Path:
    """The tool's cache root: env ``COPILOT_EVAL_HOME`` or the user cache directory."""
    configured = os.environ.get(HOME_ENV)
    if configured:
        return Path(configured).expanduser().resolve()
    return Path(platformdirs.user_cache_dir("copilot-eval"))


def runtime_install_dir(version: str) -> Path:
    """Folder that `npm install` fills with one runtime version."""
    return eval_home() / "runtime" / version


def asset_cache_dir() -> Path:
    """XDG cache shared by every runtime process: the runtime unpacks ~235 MB there once."""
    return eval_home() / "xdg-cache"


def sessions_dir() -> Path:
    """Parent of the per-run COPILOT_HOME folders (each run gets its own, about 0.5 MB)."""
    return eval_home() / "sessions"
