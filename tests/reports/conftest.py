"""Fixtures of the report tests: two real runs (played once per session) and a headless Chromium."""

from __future__ import annotations

import pytest

from tests.reports.headless_chromium import Browser, find_chromium
from tests.reports.real_runs import RealRuns, make_real_runs


@pytest.fixture(scope="session")
def real_runs(tmp_path_factory) -> RealRuns:
    """The two real runs of ``real_runs.py`` (about 30 s, once per session)."""
    return make_real_runs(tmp_path_factory.mktemp("reports"))


@pytest.fixture
def browser():
    """A fresh headless Chromium; the test is skipped, saying why, where none is installed."""
    executable = find_chromium()
    if executable is None:
        pytest.skip(
            "headless Chromium not found: install the Debian package `chromium` (.ci/run does) "
            "or set COPILOT_EVAL_CHROMIUM to a Chromium executable"
        )
    with Browser(executable) as driven:
        yield driven
