"""A small DevTools-protocol driver for the system's headless Chromium (Debian package ``chromium``).

Only what the report tests need: open a page, collect console errors, exceptions and network
requests, evaluate script, take a screenshot. It talks CDP over the ``websockets`` package the
project already depends on; no browser is downloaded (tests skip when none is installed).
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
    "--window-size=1200,900",
]
_BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium() -> str | None:
    """The Chromium executable: $COPILOT_EVAL_CHROMIUM, else the first known name on PATH."""
    configured = os.environ.get("COPILOT_EVAL_CHROMIUM")
    if configured:
        return configured
    return next((found for name in _BROWSER_NAMES if (found := shutil.which(name))), None)


@dataclass
class PageLog:
    """What a page did while loading and being driven."""

    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)


class Browser:
    """One headless Chromium with a fresh profile and one page, driven over the DevTools protocol."""

    def __init__(self, executable: str, *, timeout_s: float = 60.0) -> None:
        self.timeout_s = timeout_s
        self._profile = tempfile.mkdtemp(prefix="copilot-eval-chromium-")
        self._process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._ids = itertools.count(1)
        self._events: list[dict[str, Any]] = []
        self._stack = contextlib.ExitStack()
        self._socket = self._stack.enter_context(connect(self._browser_url(), max_size=None, open_timeout=timeout_s))
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)

    def _browser_url(self) -> str:
        deadline = time.monotonic() + self.timeout_s
        seen = []
        assert self._process.stderr is not None
        while time.monotonic() < deadline:
            line = self._process.stderr.readline()
            if not line and self._process.poll() is not None:
                break
            seen.append(line)
            match = re.search(r"DevTools listening on (ws://\S+)", line)
            if match:
                return match.group(1)
        self.close()
        raise RuntimeError("Chromium did not start its DevTools endpoint:\n" + "".join(seen[-20:]))

    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its answer; events that arrive meanwhile are kept."""
        message_id = next(self._ids)
        message: dict[str, Any] = {"id": message_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        self._socket.send(json.dumps(message))
        while True:
            reply = json.loads(self._socket.recv(timeout=self.timeout_s))
            if reply.get("id") == message_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._events.append(reply)

    def _wait_for(self, method: str) -> dict[str, Any]:
        for index, event in enumerate(self._events):
            if event.get("method") == method:
                return self._events.pop(index)
        while True:
            event = json.loads(self._socket.recv(timeout=self.timeout_s))
            if event.get("method") == method:
                return event
            self._events.append(event)

    def open(self, url: str) -> None:
        """Navigate to ``url`` and wait for its load event; the page log starts afresh."""
        self.evaluate("0")
        self._events.clear()
        self.call("Page.navigate", session=True, url=url)
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (an exception in it raises)."""
        result = self.call(
            "Runtime.evaluate", session=True, expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self) -> bytes:
        """A PNG of the whole page."""
        data = self.call("Page.captureScreenshot", session=True, format="png", captureBeyondViewport=True)["data"]
        return base64.b64decode(data)

    def log(self) -> PageLog:
        """Console errors, uncaught exceptions and network requests seen so far."""
        self.evaluate("0")  # flush: events sent before this answer are now in the list
        log = PageLog()
        for event in self._events:
            params = event.get("params", {})
            method = event.get("method")
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                log.console_errors.append(" ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                log.console_errors.append(params["entry"].get("text", ""))
            elif method == "Runtime.exceptionThrown":
                log.exceptions.append(json.dumps(params.get("exceptionDetails", {}))[:500])
            elif method == "Network.requestWillBeSent":
                log.requests.append(params["request"]["url"])
            elif method == "Network.loadingFailed":
                log.failed_requests.append(params.get("errorText", ""))
        return log

    def close(self) -> None:
        """Stop the browser (the process this object started) and remove its profile."""
        try:
            if getattr(self, "_stack", None) is not None:
                self._stack.close()
        finally:
            if self._process.poll() is None:
                self._process.terminate()
                try:
                    self._process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG image, read from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def file_url(path: Path) -> str:
    """The file:// URL of a local file."""
    return path.resolve().as_uri()
