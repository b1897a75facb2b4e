"""Find the Copilot runtime executable, never letting the SDK try its own (offline-failing) download.

Resolution order: an explicit path, env ``COPILOT_CLI_PATH``, the tool's own cached install, and
finally an automatic install on first use.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from copilot_eval.runtime.process.errors import RuntimeSetupError
from copilot_eval.runtime.process.home import runtime_install_dir
from copilot_eval.runtime.process.install import install_runtime, on_stderr
from copilot_eval.runtime.process.versions import (
    RUNTIME_VERSION,
    executable_name,
    platform_package,
)

CLI_PATH_ENV = "COPILOT_CLI_PATH"


@dataclass(frozen=True)
class RuntimeLocation:
    """An executable and where its path came from (explicit, env, cache or install)."""

    path: Path
    source: str


def cached_executable(version: str = RUNTIME_VERSION) -> Path:
    """Where `copilot-eval setup` puts the executable of ``version``."""
    base = runtime_install_dir(version) / "node_modules" / "@github"
    return base / platform_package() / executable_name()


def _checked(path: Path, source: str) -> RuntimeLocation:
    if not path.is_file():
        raise RuntimeSetupError(
            f"Copilot runtime not found at {path} (from {source}); fix the path or run `copilot-eval setup`"
        )
    if not os.access(path, os.X_OK):
        raise RuntimeSetupError(f"Copilot runtime at {path} (from {source}) is not executable; run `chmod +x {path}`")
    return RuntimeLocation(path=path, source=source)


def locate_runtime(explicit: str | os.PathLike[str] | None = None, *, install: bool = True) -> RuntimeLocation:
    """Resolve the runtime executable, installing the pinned version when nothing else is found."""
    if explicit:
        return _checked(Path(explicit).expanduser(), "explicit runtime_path")
    from_env = os.environ.get(CLI_PATH_ENV)
    if from_env:
        return _checked(Path(from_env).expanduser(), f"env {CLI_PATH_ENV}")
    cached = cached_executable()
    if cached.is_file():
        return RuntimeLocation(path=cached, source="cache")
    if not install:
        raise RuntimeSetupError(f"Copilot runtime {RUNTIME_VERSION} is not installed; run `copilot-eval setup`")

    # First use: a person waits for the install and the unpacking, so both say how far they are.
    report = install_runtime(progress=on_stderr)
    return RuntimeLocation(path=report.executable, source="installed now")
