"""The one folder where copilot-eval keeps its own files (runtime installs, caches, the login's token cache).

A leaf module: it imports nothing of copilot_eval, so the runtime and the Copilot Studio targets
both find the same folder without one importing the other.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CACHE_ROOT_ENV = "COPILOT_EVAL_HOME"


def cache_root() -> Path:
    """The tool's cache root: env ``COPILOT_EVAL_HOME`` or the user cache directory."""
    configured = os.environ.get(CACHE_ROOT_ENV)
    if configured:
        return Path(configured).expanduser().resolve()
    return Path(platformdirs.user_cache_dir("copilot-eval"))


__all__ = ["CACHE_ROOT_ENV", "cache_root"]
