"""The runtime host: one background event loop that owns every Copilot runtime client.

The SDK ties a client to the event loop it was started in. pytest-asyncio gives each test its
own loop by default, and a command may call ``asyncio.run`` more than once; if runtimes lived in
those loops, each loop would need its own runtime (about 0.4 s to start, and a slower first
session). Running the clients in one long-lived loop of our own lets a single pooled runtime
serve every run of the process, whatever loop the caller is in, and gives sync callers a way in.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class RuntimeHost:
    """A daemon thread running an event loop; coroutines are submitted to it from anywhere."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop.set_exception_handler(_quiet_late_replies)
        started = threading.Event()
        self._thread = threading.Thread(
            target=self._serve, args=(started,), name="copilot-eval-runtime-host", daemon=True
        )
        self._thread.start()
        started.wait()

    def _serve(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(started.set)
        self.loop.run_forever()

    def in_host(self) -> bool:
        """Whether the caller is already running on the host loop."""
        try:
            return asyncio.get_running_loop() is self.loop
        except RuntimeError:
            return False

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> Future[T]:
        """Schedule a coroutine on the host loop from any thread."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Await a coroutine on the host loop from any event loop (cancellation is passed on)."""
        if self.in_host():
            return await coroutine
        return await asyncio.wrap_future(self.submit(coroutine))

    def run_sync(self, coroutine: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run a coroutine on the host loop from synchronous code and return its result."""
        if self.in_host():
            raise RuntimeError("run_sync cannot be called from the runtime host's own loop")
        return self.submit(coroutine).result(timeout)


def _late_reply(context: dict[str, Any]) -> bool:
    """Whether the loop's error is a reply delivered to a request already cancelled (an interrupt).

    The SDK's reader thread checks that a request's future is pending, then hands it its reply
    through ``call_soon_threadsafe``; when an interrupt cancels the request in between, the reply
    meets a cancelled future and asyncio prints ``InvalidStateError`` with a traceback before the
    command's clean exit line. Nothing was lost: the request was given up on purpose.
    """
    if not isinstance(context.get("exception"), asyncio.InvalidStateError):
        return False
    callback = getattr(context.get("handle"), "_callback", None)
    future = getattr(callback, "__self__", None)
    named = getattr(callback, "__name__", "") in ("set_result", "set_exception")
    return named and isinstance(future, asyncio.Future) and future.cancelled()


def _quiet_late_replies(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The host loop's error handler: a late reply to a cancelled request is dropped, anything else said."""
    if not _late_reply(context):
        loop.default_exception_handler(context)


_host: RuntimeHost | None = None
_host_lock = threading.Lock()


def runtime_host() -> RuntimeHost:
    """The process-wide runtime host, started on first use."""
    global _host
    with _host_lock:
        if _host is None:
            _host = RuntimeHost()
        return _host
