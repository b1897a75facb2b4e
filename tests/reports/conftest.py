"""Fixtures of the report tests: two real runs, played once per session (the browser is the suite's, tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.reports.real_runs import RealRuns, make_real_runs


@pytest.fixture(scope="session")
def real_runs(tmp_path_factory) -> RealRuns:
    """The two real runs of ``real_runs.py`` (about 30 s, once per session)."""
    return make_real_runs(tmp_path_factory.mktemp("reports"))
