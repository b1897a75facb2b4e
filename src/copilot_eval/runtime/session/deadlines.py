"""Waiting on the runtime without ever waiting forever: deadlines, liveness polls, bounded cleanup."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from copilot_eval.runtime.process.handle import RuntimeHandle

POLL_INTERVAL_S = 0.1
EXIT_SETTLE_S = 0.5


class RuntimeDied(Exception):
    """The runtime process exited while the runner was waiting on it."""


async def guarded(awaitable: Any, handle: RuntimeHandle, deadline: float) -> Any:
    """Await a call into the runtime, but give up at the deadline or as soon as the runtime dies.

    A request to a dead runtime may never be answered; polling the process keeps the run from
    waiting for the timeout to find that out. The awaited task is cancelled, never leaked.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        while not task.done():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            if not handle.alive():
                raise RuntimeDied(handle.exit_description())
            await asyncio.wait({task}, timeout=min(POLL_INTERVAL_S, remaining))
        return task.result()
    finally:
        if not task.done():
            task.cancel()


async def settle_exit(handle: RuntimeHandle) -> None:
    """After a broken connection, give the process a moment to be reaped so its exit can be named."""
    for _ in range(int(EXIT_SETTLE_S / POLL_INTERVAL_S)):
        if not handle.alive():
            return
        await asyncio.sleep(POLL_INTERVAL_S)


async def bounded(awaitable: Any, seconds: float, what: str) -> str | None:
    """Await with a deadline; return a description of the failure instead of raising.

    A step that overruns is not cancelled: it may still finish in the background (a late
    disconnect still frees the session in the runtime), but the run no longer waits for it.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        await asyncio.wait_for(asyncio.shield(task), seconds)
        return None
    except TimeoutError:
        task.add_done_callback(_swallow_late_outcome)
        return f"{what} did not finish within {seconds:.1f} s"
    except Exception as error:
        return f"{what} failed: {type(error).__name__}: {error}"


def _swallow_late_outcome(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved, so a late failure is not logged as never retrieved
