"""Shared test configuration: the pytester fixture for plugin tests, the `runtime` marker enforced, one
runtime install for the whole suite, a history kept out of the repository, and inner pytest sessions
that name their asyncio fixture loop scope."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from copilot_eval.cache_root import CACHE_ROOT_ENV, cache_root
from tests.reports.headless_chromium import Browser, find_chromium

pytest_plugins = ["pytester", "tests.runtime_guard"]

_HISTORY_ENV = "COPILOT_EVAL_HISTORY"
_ADDOPTS_ENV = "PYTEST_ADDOPTS"
# pytester's inner sessions do not read our pyproject.toml, and pytest-asyncio warns in each one
# whose ini leaves this unset (the warning then lands in the suite's summary). A test that writes
# its own ini with makeini replaces this one and names the scope there.
INNER_INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"
_saved: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    """Name the tool's cache explicitly, so that processes the tests start find the installed runtime;
    under pytest-xdist, set the runtime up once before the workers start; and record every
    `copilot-eval run` the suite starts into a throw-away history database.

    pytester gives its inner pytest runs a temporary HOME; without this each of them installed the
    runtime again under it (npm, then 423 MB unpacked into the test's folder). Two workers that both
    find no runtime on a fresh machine would both install it into the same folder.
    """
    os.environ.setdefault(CACHE_ROOT_ENV, str(cache_root()))
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from copilot_eval.runtime.process.install import install_runtime

        install_runtime()  # a file check when it is already set up
    # The history is set for the whole session (subprocesses inherit it) and over any value of the
    # developer's own: the suite's runs must not land in a real, perhaps shared, history. Tests that
    # look at the history name their own database.
    folder = tempfile.mkdtemp(prefix="copilot-eval-test-history-")
    _saved["before"], _saved["folder"] = os.environ.get(_HISTORY_ENV), folder
    os.environ[_HISTORY_ENV] = os.path.join(folder, "history.db")
    # The pytest plugin arize-phoenix installs (the OpenTelemetry tests' receiver, in the dev extra)
    # takes 5-35 s to import; pyproject.toml switches it off for this session, and this for the
    # pytest sessions the tests start (pytester, in process or not, and the CLI's subprocesses).
    _saved["addopts"] = os.environ.get(_ADDOPTS_ENV)
    os.environ[_ADDOPTS_ENV] = f"{os.environ.get(_ADDOPTS_ENV, '')} -p no:phoenix".strip()


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytester, with an ini that names the loop scope pytest-asyncio would otherwise warn about, and
    without arize-phoenix's pytest plugin (pytester drops PYTEST_ADDOPTS, so it is set again here):
    importing it loads pandas and numpy, which fail in a second in-process session and take seconds."""
    pytester.makeini(INNER_INI)
    monkeypatch.setenv(_ADDOPTS_ENV, "-p no:phoenix")
    return pytester


@pytest.fixture
def browser():
    """A fresh headless Chromium for the report and dashboard tests; skipped, saying why, where none is installed."""
    executable = find_chromium()
    if executable is None:
        pytest.skip(
            "headless Chromium not found: install the Debian package `chromium` (.ci/run does) "
            "or set COPILOT_EVAL_CHROMIUM to a Chromium executable"
        )
    with Browser(executable) as driven:
        yield driven


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
    addopts = _saved.pop("addopts", None)
    if addopts is None:
        os.environ.pop(_ADDOPTS_ENV, None)
    else:
        os.environ[_ADDOPTS_ENV] = addopts
