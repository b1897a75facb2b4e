"""A real Arize Phoenix server for the export's tests: loopback only, its own folder, stopped by PID.

``arize-phoenix`` (in the dev extra) is started as ``phoenix serve`` on free ports of 127.0.0.1, with
its product telemetry off and its data in a temporary folder that goes with it. Starting it takes
15-30 s on a quiet two-core machine (its database migrations), more under load.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

START_TIMEOUT_S = 300.0


def phoenix_command() -> list[str] | None:
    """How to start Phoenix with this interpreter's packages; ``None`` when arize-phoenix is missing.

    Found, not imported: importing Phoenix here would load its whole server (and its warnings) into
    every test session that collects this module.
    """
    if importlib.util.find_spec("phoenix") is None:
        return None
    executable = Path(sys.executable).with_name("phoenix")
    return (
        [str(executable), "serve"] if executable.is_file() else [sys.executable, "-m", "phoenix.server.main", "serve"]
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Phoenix:
    """A started Phoenix: its base URL and a client for its REST API."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=30)

    def spans(self, project: str = "default") -> list[dict[str, Any]]:
        """Every span Phoenix holds for a project, through its REST API (paged)."""
        found: list[dict[str, Any]] = []
        cursor = None
        while True:
            params: dict[str, Any] = {"limit": 1000, **({"cursor": cursor} if cursor else {})}
            page = self.http.get(f"/v1/projects/{project}/spans", params=params)
            page.raise_for_status()
            body = page.json()
            found.extend(body["data"])
            cursor = body.get("next_cursor")
            if not cursor:
                return found

    def wait_for_spans(self, predicate: Any, timeout_s: float = 60.0) -> list[dict[str, Any]]:
        """The spans once ``predicate(spans)`` holds (Phoenix writes what it receives in the background)."""
        deadline = time.monotonic() + timeout_s
        while True:
            spans = self.spans()
            if predicate(spans) or time.monotonic() > deadline:
                return spans
            time.sleep(0.5)


@contextlib.contextmanager
def running_phoenix() -> Iterator[Phoenix]:
    """Start Phoenix, wait until it answers, hand it over, and stop it by PID (then remove its folder)."""
    command = phoenix_command()
    assert command is not None, "arize-phoenix is not installed"
    folder = Path(tempfile.mkdtemp(prefix="copilot-eval-phoenix-"))
    port = _free_port()
    env = {
        **os.environ,
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(_free_port()),
        "PHOENIX_WORKING_DIR": str(folder),
        "PHOENIX_TELEMETRY_ENABLED": "false",  # no product telemetry: the test talks to loopback only
        "PHOENIX_LOG_MIGRATIONS": "false",
    }
    log = (folder / "phoenix.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                tail = (folder / "phoenix.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"phoenix serve exited with {process.returncode}:\n{tail}")
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"phoenix serve did not answer on {url} within {START_TIMEOUT_S:.0f} s")
            time.sleep(0.5)
        yield Phoenix(url)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)  # its own session: the server and any child it started
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
