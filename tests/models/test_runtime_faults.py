"""How scripted faults reach the runtime: retried faults recover, a 400 fails at once, delays are cancellable."""

from __future__ import annotations

import asyncio

import pytest

from copilot_eval.models import ScriptedModel

pytestmark = pytest.mark.runtime


async def test_a_500_is_retried_and_the_retry_gets_the_next_turn(runtime):
    model = ScriptedModel.from_dict(
        {"rules": [{"turns": [{"error": {"status": 500, "message": "boom"}}, {"text": "recovered"}]}]}
    )
    run = await runtime.run(model, "go", streaming=True)
    assert run.errors == [] and run.final_text == "recovered"
    assert [c.outcome for c in run.endpoint.calls] == ["error", "text"]


async def test_a_400_is_not_retried_and_surfaces_with_its_status(runtime):
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"error": {"status": 400, "message": "bad input"}}]}]})
    run = await runtime.run(model, "go")
    assert [(e.data.status_code, e.data.message) for e in run.errors] == [(400, "400 bad input")]
    assert len(run.endpoint.calls) == 1


@pytest.mark.parametrize("wire_api", ["completions", "responses"])
async def test_a_malformed_stream_is_retried(runtime, wire_api):
    model = ScriptedModel.from_dict(
        {"rules": [{"turns": [{"malformed": True}, {"text": "recovered"}]}]}, wire_api=wire_api
    )
    run = await runtime.run(model, "go", streaming=True)
    assert run.final_text == "recovered"
    assert [c.outcome for c in run.endpoint.calls] == ["malformed", "text"]


async def test_a_long_delay_ends_when_the_session_is_aborted(runtime):
    from copilot import PermissionHandler

    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "never", "delay_s": 3600}]}]})
    endpoint = model.endpoint()
    idle = asyncio.Event()
    session = await runtime.client.create_session(
        model=model.session_model,
        provider=model.provider_config(),
        on_permission_request=PermissionHandler.approve_all,
        on_event=lambda e: idle.set() if e.type.value == "session.idle" else None,
    )
    runtime._routes[session.session_id] = endpoint
    try:
        await session.send("go")
        while not endpoint.calls:
            await asyncio.sleep(0.02)
        assert _waiting_calls() != []
        await session.abort()
        await asyncio.wait_for(idle.wait(), 5)
    finally:
        await session.disconnect()
    # No sleeping task is left behind: the handler's task for the call has finished.
    await asyncio.sleep(0.1)
    assert _waiting_calls() == []


def _waiting_calls() -> list[asyncio.Task]:
    # The SDK runs each model call as a task around the handler's send_request.
    return [t for t in asyncio.all_tasks() if "_forward_http" in repr(t.get_coro())]
