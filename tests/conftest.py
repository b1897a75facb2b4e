"""Shared test configuration: the pytester fixture for plugin tests, and a history kept out of the repository."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

pytest_plugins = ["pytester"]

_HISTORY_ENV = "COPILOT_EVAL_HISTORY"
_saved: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    """Every `copilot-eval run` the suite starts records into a throw-away database, never the repository's."""
    # Set for the whole session (subprocesses inherit it) and over any value of the developer's own:
    # the suite's runs must not land in a real, perhaps shared, history. Tests that look at the
    # history name their own database.
    folder = tempfile.mkdtemp(prefix="copilot-eval-test-history-")
    _saved["before"], _saved["folder"] = os.environ.get(_HISTORY_ENV), folder
    os.environ[_HISTORY_ENV] = os.path.join(folder, "history.db")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Give the environment back and remove the throw-away database."""
    if "folder" not in _saved:
        return
    before = _saved.pop("before")
    if before is None:
        os.environ.pop(_HISTORY_ENV, None)
    else:
        os.environ[_HISTORY_ENV] = before
    shutil.rmtree(_saved.pop("folder") or "", ignore_errors=True)
