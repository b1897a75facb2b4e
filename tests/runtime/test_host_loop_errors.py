"""The runtime host's loop: a reply that arrives after its request was cancelled prints no traceback."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from copilot_eval.runtime.process.host import RuntimeHost


@pytest.fixture
def host():
    host = RuntimeHost()
    yield host
    host.loop.call_soon_threadsafe(host.loop.stop)


def _deliver_late(host: RuntimeHost, deliver: str, value: object) -> None:
    async def cancelled_request() -> asyncio.Future:
        future = host.loop.create_future()
        future.cancel()  # an interrupt gave the request up
        return future

    future = host.run_sync(cancelled_request())
    # As the SDK's reader thread does: the reply handed over from another thread.
    threading.Thread(target=host.loop.call_soon_threadsafe, args=(getattr(future, deliver), value)).start()
    host.run_sync(asyncio.sleep(0.05))


def test_a_reply_to_a_cancelled_request_is_dropped_quietly(host, caplog):
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        _deliver_late(host, "set_result", {"ok": True})
        _deliver_late(host, "set_exception", RuntimeError("process exited"))
    assert not [r for r in caplog.records if "InvalidStateError" in (r.getMessage() + str(r.exc_info))], caplog.text


def test_other_errors_of_the_loop_are_still_said(host, caplog):

    def broken() -> None:
        raise ValueError("a real bug")

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        host.loop.call_soon_threadsafe(broken)
        host.run_sync(asyncio.sleep(0.05))
    assert "a real bug" in caplog.text
