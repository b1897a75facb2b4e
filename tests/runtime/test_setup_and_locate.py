"""Finding and installing the runtime: the order of sources and the messages that say the fix."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from copilot_eval.runtime.process.errors import RuntimeSetupError
from copilot_eval.runtime.process.install import install_runtime
from copilot_eval.runtime.process.locate import locate_runtime


def _fake_executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_explicit_path_wins_over_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    explicit = _fake_executable(tmp_path / "explicit" / "copilot")
    monkeypatch.setenv("COPILOT_CLI_PATH", str(_fake_executable(tmp_path / "env" / "copilot")))
    location = locate_runtime(explicit)
    assert location.path == explicit and location.source == "explicit runtime_path"


def test_environment_wins_over_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from_env = _fake_executable(tmp_path / "env" / "copilot")
    monkeypatch.setenv("COPILOT_CLI_PATH", str(from_env))
    assert locate_runtime().path == from_env


def test_a_wrong_path_names_its_source_and_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COPILOT_CLI_PATH", str(tmp_path / "missing"))
    with pytest.raises(RuntimeSetupError, match=r"env COPILOT_CLI_PATH.*copilot-eval setup"):
        locate_runtime()


def test_without_npm_setup_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COPILOT_CLI_PATH", raising=False)
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with pytest.raises(RuntimeSetupError, match=r"npm was not found.*Node.js"):
        locate_runtime()
    assert not (tmp_path / "home" / "runtime").exists() or not any((tmp_path / "home" / "runtime").rglob("copilot"))


def test_not_installed_and_install_refused_says_run_setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COPILOT_CLI_PATH", raising=False)
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    with pytest.raises(RuntimeSetupError, match="copilot-eval setup"):
        locate_runtime(install=False)


def test_setup_is_idempotent_and_fast_the_second_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COPILOT_CLI_PATH", raising=False)
    first = install_runtime()  # installs on a fresh machine, otherwise already done
    assert first.executable.is_file() and os.access(first.executable, os.X_OK)
    assert first.protocol_version == 3
    started = time.perf_counter()
    second = install_runtime()
    assert time.perf_counter() - started < 1.0
    assert second.installed is False and second.executable == first.executable
    assert "already set up" in second.steps[0]
