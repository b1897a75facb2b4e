"""A loopback server (the Copilot Studio fakes, the examples) leaves the process's signals to its caller."""

from __future__ import annotations

import signal

import httpx

from copilot_eval.testing import LoopbackServer


async def _hello(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"hello"})


async def test_ctrl_c_still_reaches_the_caller_while_a_loopback_server_serves_in_its_loop():
    before = signal.getsignal(signal.SIGINT)
    async with LoopbackServer(_hello) as server:
        async with httpx.AsyncClient() as client:
            assert (await client.get(server.url)).text == "hello"
        assert signal.getsignal(signal.SIGINT) == before, "uvicorn took over SIGINT while it served"
    assert signal.getsignal(signal.SIGINT) == before
