"""The `runtime` marker, enforced: a test that drives the Copilot runtime without it fails, saying to
add the marker, so that `python -m pytest -m "not runtime"` stays a fast lane.

Two watches, both active only while an unmarked test runs (setup, call and teardown):
- in this process, leasing from a RuntimePool, starting an SDK client and opening a session;
- in processes the test starts (the CLI, pytester subprocesses, scripts), `COPILOT_CLI_PATH` points
  at a small guard script that notes the start and then becomes the real runtime.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

MARKER = "runtime"
ADVICE = (
    "add @pytest.mark.runtime to the test (or `pytestmark = pytest.mark.runtime` to its module), "
    'so that `python -m pytest -m "not runtime"` stays a fast lane'
)

GUARD_SCRIPT = """#!/bin/sh
# Written by tests/runtime_guard.py for a test without the runtime marker: note the start, then run.
echo "$$" >> '{record}'
if [ -x '{real}' ]; then exec '{real}' "$@"; fi
echo "the Copilot runtime is not installed at {real}; this test lacks @pytest.mark.runtime" >&2
exit 1
"""


class RuntimeGuard:
    """Notes how the unmarked test now running reached the runtime; one per pytest process."""

    def __init__(self) -> None:
        self.unmarked: pytest.Item | None = None
        self.seen: list[str] = []
        self.folder = Path(tempfile.mkdtemp(prefix="copilot-eval-runtime-guard-"))
        self.record = self.folder / "starts.log"
        self.record.touch()
        self._record_size = 0
        self._saved_env: str | None = None
        self._undo: list[Callable[[], None]] = []
        self._watched: set[str] = set()

    def watch_loaded(self) -> None:
        """Wrap the in-process ways into a runtime, the pool's lease and the SDK client, once their
        modules are loaded. Importing the SDK here would add a second to every pytest start; a
        runtime started before they load still goes through COPILOT_CLI_PATH (the guard script)."""
        pool = sys.modules.get("copilot_eval.runtime.process.pool")
        if pool is not None and "pool" not in self._watched:
            self._watched.add("pool")
            self._watch(pool.RuntimePool, "lease", "leased a runtime from a RuntimePool")
        sdk = sys.modules.get("copilot")
        if sdk is not None and "sdk" not in self._watched:
            self._watched.add("sdk")
            client = sdk.CopilotClient
            # The pool starts its runtimes on its host thread, after a lease (already noted); a spare
            # started there ahead of time must not be charged to whichever test runs next.
            self._watch(client, "start", "started a Copilot runtime (CopilotClient.start)", off_host=True)
            self._watch(client, "create_session", "opened a runtime session (CopilotClient.create_session)")
            self._watch(client, "resume_session", "resumed a runtime session (CopilotClient.resume_session)")

    def uninstall(self) -> None:
        """Put the wrapped methods back and remove the guard script."""
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _watch(self, owner: type, name: str, how: str, *, off_host: bool = False) -> None:
        original = owner.__dict__[name]

        @functools.wraps(original)
        def watched(*args: Any, **kwargs: Any) -> Any:
            if self.unmarked is not None and not (off_host and _on_runtime_host()):
                self.seen.append(how)
            return original(*args, **kwargs)

        setattr(owner, name, watched)
        self._undo.append(lambda: setattr(owner, name, original))

    def begin(self, item: pytest.Item) -> None:
        """An unmarked test starts: watch it, and point child processes at the guard script."""
        self.watch_loaded()
        self.unmarked, self.seen = item, []
        self._record_size = self.record.stat().st_size
        self._saved_env = os.environ.get("COPILOT_CLI_PATH")
        if os.name == "posix":  # the guard is a shell script; elsewhere only the in-process watch runs
            os.environ["COPILOT_CLI_PATH"] = str(self._guard_script(self._saved_env))

    def end(self) -> None:
        """The unmarked test is over: stop watching and restore the environment."""
        self.unmarked = None
        if self._saved_env is None:
            os.environ.pop("COPILOT_CLI_PATH", None)
        else:
            os.environ["COPILOT_CLI_PATH"] = self._saved_env

    def violations(self) -> list[str]:
        """How the current unmarked test reached the runtime so far (each way once), then forgets them."""
        found = list(dict.fromkeys(self.seen))
        size = self.record.stat().st_size
        if size > self._record_size:
            pids = self.record.read_text()[self._record_size :].split()
            found.append(f"started a Copilot runtime process through COPILOT_CLI_PATH (pid {', '.join(pids)})")
            self._record_size = size
        self.seen = []
        return found

    def _guard_script(self, configured: str | None) -> Path:
        from copilot_eval.runtime.process.locate import cached_executable

        real = configured or str(cached_executable())
        script = self.folder / f"copilot-{abs(hash(real))}"
        if not script.exists():
            script.write_text(GUARD_SCRIPT.format(record=self.record, real=real))
            script.chmod(0o755)
        return script


def _on_runtime_host() -> bool:
    host = sys.modules.get("copilot_eval.runtime.process.host")
    return host is not None and host._host is not None and host._host.in_host()


def _fail_if_seen(guard: RuntimeGuard, item: pytest.Item) -> None:
    found = guard.violations()
    if found:
        pytest.fail(f"{item.nodeid} has no `runtime` marker but {'; '.join(found)}: {ADVICE}", pytrace=False)


_guard_key = pytest.StashKey[RuntimeGuard]()


def pytest_configure(config: pytest.Config) -> None:
    """Start watching for the whole session."""
    config.stash[_guard_key] = RuntimeGuard()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop watching."""
    guard = config.stash.get(_guard_key, None)
    if guard is not None:
        guard.uninstall()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    """Watch an unmarked test from before its fixtures (a module-scoped runtime fixture counts)."""
    if item.get_closest_marker(MARKER) is None:
        item.config.stash[_guard_key].begin(item)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Fail an unmarked test that reached the runtime in its setup or its body."""
    result = yield
    guard = item.config.stash[_guard_key]
    if guard.unmarked is item:
        _fail_if_seen(guard, item)
    return result


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    """After the fixtures are gone: stop watching, and fail on a runtime reached only in teardown."""
    guard = item.config.stash[_guard_key]
    try:
        result = yield
    finally:
        if guard.unmarked is item:
            try:
                _fail_if_seen(guard, item)
            finally:
                guard.end()
    return result
