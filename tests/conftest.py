"""Shared test configuration: the pytester fixture for plugin tests, the `runtime` marker enforced, and
one runtime install for the whole suite."""

from __future__ import annotations

import os

import pytest

from copilot_eval.cache_root import CACHE_ROOT_ENV, cache_root

pytest_plugins = ["pytester", "tests.runtime_guard"]


def pytest_configure(config: pytest.Config) -> None:
    """Name the tool's cache explicitly, so that processes the tests start find the installed runtime;
    under pytest-xdist, set the runtime up once before the workers start.

    pytester gives its inner pytest runs a temporary HOME; without this each of them installed the
    runtime again under it (npm, then 423 MB unpacked into the test's folder). Two workers that both
    find no runtime on a fresh machine would both install it into the same folder.
    """
    os.environ.setdefault(CACHE_ROOT_ENV, str(cache_root()))
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from copilot_eval.runtime.process.install import install_runtime

        install_runtime()  # a file check when it is already set up
