"""The loopback server: a real BYOK provider for the runtime (no request handler), shared by sessions."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time

import httpx
import pytest
from copilot import CopilotClient, PermissionHandler, RuntimeConnection, define_tool
from pydantic import BaseModel

from copilot_eval.models import ScriptedModel


class Account(BaseModel):
    account: str


def _balance(params: Account) -> str:
    return f"balance of {params.account}: 42"


BALANCE_TOOL = define_tool("get_balance", description="Get a balance", handler=_balance, params_type=Account)


@pytest.fixture(scope="module")
async def byok_client():
    """A runtime with NO request handler: model calls really go over loopback HTTP."""
    from copilot_eval.runtime.process.environment import runtime_environment
    from copilot_eval.runtime.process.locate import locate_runtime

    client = CopilotClient(
        connection=RuntimeConnection.for_stdio(path=str(locate_runtime().path)),
        base_directory=tempfile.mkdtemp(),
        env=runtime_environment(),
    )
    await client.start()
    try:
        yield client
    finally:
        await client.stop()


async def _run(client, model, base_url, prompt, *, workdir=None, streaming=True):
    events, idle = [], asyncio.Event()

    def on_event(event):
        events.append(event)
        if event.type.value == "session.idle" and not getattr(event, "agent_id", None):
            idle.set()

    session = await client.create_session(
        model=model.session_model,
        provider=model.provider_config(base_url=base_url),
        on_permission_request=PermissionHandler.approve_all,
        streaming=streaming,
        working_directory=workdir or tempfile.mkdtemp(),
        tools=[BALANCE_TOOL],
        on_event=on_event,
    )
    try:
        await session.send(prompt)
        await asyncio.wait_for(idle.wait(), 30)
    finally:
        await session.disconnect()
    return [e.data.content for e in events if e.type.value == "assistant.message"]


@pytest.mark.runtime
@pytest.mark.parametrize(
    ("wire_api", "transport"), [("completions", "http"), ("responses", "http"), ("responses", "websockets")]
)
async def test_served_model_is_a_real_byok_provider(byok_client, tmp_path, wire_api, transport):
    model = ScriptedModel.from_file(
        os.path.join(os.path.dirname(__file__), "../../examples/scripts/hello.yaml"),
        wire_api=wire_api,
        transport=transport,
    )
    async with model.serve(working_directory=str(tmp_path)) as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
        texts = await _run(byok_client, model, server.base_url, "a hello file please", workdir=str(tmp_path))
    assert texts[-1] == "Created hello.txt"
    assert (tmp_path / "hello.txt").read_text() == "hello\n"
    expected = "websocket" if transport == "websockets" else "http"
    assert [c.transport for c in server.endpoint.calls] == [expected, expected]


@pytest.mark.runtime
async def test_concurrent_sessions_on_one_server_stay_separate(byok_client):
    script = {
        "rules": [
            {
                "turns": [
                    {"error": {"status": 500, "message": "first try fails"}},
                    {"tool_calls": [{"name": "get_balance", "arguments": {"account": "{prompt}"}}]},
                    {"text": "{prompt}: {last_tool_result}"},
                ]
            }
        ]
    }
    model = ScriptedModel.from_dict(script)
    async with model.serve() as server:
        results = await asyncio.gather(*(_run(byok_client, model, server.base_url, p) for p in ("alpha", "beta")))
    assert [texts[-1] for texts in results] == ["alpha: balance of alpha: 42", "beta: balance of beta: 42"]
    outcomes = sorted((c.prompt, c.outcome) for c in server.endpoint.calls)
    assert outcomes == [(p, o) for p in ("alpha", "beta") for o in ("error", "text", "tool_calls")]


async def test_plain_http_answers_and_a_pending_delay_does_not_hold_shutdown():
    model = ScriptedModel.from_dict(
        {
            "rules": [
                {"when": {"prompt_contains": "slow"}, "turns": [{"text": "x", "delay_s": 3600}]},
                {"turns": [{"text": "hi {prompt}"}]},
            ]
        }
    )
    async with model.serve() as server, httpx.AsyncClient(base_url=server.base_url) as http:
        body = {"messages": [{"role": "user", "content": "there"}]}
        answer = (await http.post("/chat/completions", json=body)).json()
        assert answer["choices"][0]["message"]["content"] == "hi there"
        assert (await http.post("/embeddings", json={})).status_code == 400
        slow = asyncio.create_task(
            http.post("/chat/completions", json={"messages": [{"role": "user", "content": "slow"}]})
        )
        await asyncio.sleep(0.2)
        started = time.monotonic()
    assert time.monotonic() - started < 3
    slow.cancel()
    await asyncio.gather(slow, return_exceptions=True)
