"""Fixtures: the runs ledger in a temporary home, and the test token in the environment."""

from __future__ import annotations

import pytest

from tests.studio_eval.studio_helpers import TOKEN_ENV


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    # The ledger of started runs lives in the tool's home; each test gets its own.
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COPILOT_EVAL_STUDIO_LEDGER", raising=False)
    monkeypatch.setenv(TOKEN_ENV, "fake-power-platform-token")
