"""The agent under test sees what the plain SDK shows it; the evidence says what it saw, and more.

A Python tool that raises, one that returns a failed result and one called with bad arguments are
run twice through the real runtime with the same FunctionModel: once by copilot-eval and once by
the bare SDK (``define_tool`` tools on a client of its own), the way an agent runs in production.
The tool messages the model received must be the same text in both. The evidence keeps what the
model was not told (the exception, the handler's own error) and what it was (``sent_to_model``).
"""

from __future__ import annotations

import asyncio
import tempfile
from typing import Any

import pytest
from copilot import PermissionHandler, define_tool
from copilot.tools import ToolResult
from pydantic import BaseModel

from copilot_eval import CallTool, CopilotEval, FunctionModel, ScriptedModel, run_copilot

pytestmark = pytest.mark.runtime

SECRET_REASON = "account A-7 is locked by the fraud desk"  # must never reach the model


class Account(BaseModel):
    account: str


class Amount(BaseModel):
    amount: float


def _lookup(params: Account) -> str:
    raise PermissionError(f"{SECRET_REASON} ({params.account})")


def _refund(params: Amount) -> Any:
    return ToolResult(
        text_result_for_llm="Refunds above 100 need a manager.", result_type="failure", error="over limit"
    )


def _convert(params: Amount) -> str:
    return f"{params.amount * 2:g} EUR"


def lookup(account: str) -> str:
    """Look an account up (a plain function: copilot-eval builds its schema)."""
    raise PermissionError(f"{SECRET_REASON} ({account})")


CALLS = [
    CallTool("lookup", {"account": "A-7"}, id="call_lookup"),
    CallTool("refund", {"amount": 250}, id="call_refund"),
    CallTool("convert", {"amount": "lots"}, id="call_convert"),
    CallTool("view", {"path": "/nonexistent/copilot-eval/ledger.txt"}, id="call_view"),
]


def _recording_model(seen: dict[str, str], **options: Any) -> FunctionModel:
    def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        for message in messages:
            if message["role"] == "tool":
                seen.setdefault(message["tool_call_id"], message["content"])
        return CALLS if not any(m["role"] == "tool" for m in messages) else "done"

    return FunctionModel(answer, **options)


def _sdk_tools() -> list[Any]:
    return [
        define_tool("lookup", description="Look an account up.", handler=_lookup, params_type=Account),
        define_tool("refund", description="Refund an amount.", handler=_refund, params_type=Amount),
        define_tool("convert", description="Convert an amount.", handler=_convert, params_type=Amount),
    ]


async def _plain_sdk_run(model: FunctionModel) -> None:
    """The agent as production runs it: the bare SDK, its own define_tool handlers, no copilot-eval in between."""
    from copilot_eval.runtime.process.client_factory import start_client
    from copilot_eval.runtime.process.locate import locate_runtime

    workdir = tempfile.mkdtemp(prefix="copilot-eval-plain-")
    client = await start_client(locate_runtime().path, request_handler=model.endpoint(working_directory=workdir))
    idle = asyncio.Event()

    def on_event(event: Any) -> None:
        if event.type.value == "session.idle" and not event.agent_id:
            idle.set()

    try:
        session = await client.create_session(
            model=model.session_model,
            provider=model.provider_config(),
            working_directory=workdir,
            tools=_sdk_tools(),
            on_permission_request=PermissionHandler.approve_all,
            on_event=on_event,
        )
        await session.send("check account A-7")
        await asyncio.wait_for(idle.wait(), 90)
        await session.disconnect()
    finally:
        await client.stop()


@pytest.fixture(scope="module")
async def both_runs() -> tuple[Any, dict[str, str], dict[str, str]]:
    ours: dict[str, str] = {}
    plain: dict[str, str] = {}
    tools = (lookup, *_sdk_tools()[1:])  # a plain function and define_tool tools, as users mix them
    result = await run_copilot(
        CopilotEval(model=_recording_model(ours), tools=tools, timeout_s=90), "check account A-7"
    )
    await _plain_sdk_run(_recording_model(plain))
    return result, ours, plain


def test_the_model_receives_exactly_what_the_plain_sdk_gives_it(both_runs):
    result, ours, plain = both_runs
    assert result.success, result.error
    assert set(ours) == set(plain) == {call.id for call in CALLS}
    assert ours == plain
    assert not any(SECRET_REASON in text for text in ours.values()), "the exception stays out of the model's view"


def test_a_raising_tool_keeps_its_exception_in_the_evidence_only(both_runs):
    result, ours, _ = both_runs
    call = result.tool_calls_for("lookup")[0]
    assert (call.success, call.result_type) == (False, "failure")
    assert (call.exception.type, call.exception.message) == ("PermissionError", f"{SECRET_REASON} (A-7)")
    assert call.exception.traceback[-1].endswith(" in lookup") and __file__ in call.exception.traceback[-1]
    assert call.error == f"PermissionError: {SECRET_REASON} (A-7)"
    assert call.sent_to_model == ours["call_lookup"]


def test_a_failed_result_keeps_its_type_its_text_for_the_model_and_its_error(both_runs):
    result, ours, _ = both_runs
    refund = result.tool_calls_for("refund")[0]
    assert (refund.success, refund.result_type, refund.error) == (False, "failure", "over limit")
    assert refund.sent_to_model == ours["call_refund"] == "Refunds above 100 need a manager."
    convert = result.tool_calls_for("convert")[0]
    assert convert.result_type == "failure" and convert.sent_to_model.startswith("Invalid tool arguments:")
    assert "Invalid tool arguments" in convert.error and convert.exception is None


def test_a_built_in_tools_error_keeps_the_longer_text_the_model_was_sent(both_runs):
    result, ours, _ = both_runs
    view = result.tool_calls_for("view")[0]
    assert view.success is False and view.result_type == "failure"
    assert view.sent_to_model == ours["call_view"] and view.sent_to_model != view.error
    assert "/nonexistent/copilot-eval/ledger.txt" in view.sent_to_model


@pytest.mark.parametrize(("wire_api", "transport"), [("responses", "http"), ("responses", "websockets")])
async def test_the_text_sent_is_read_from_responses_requests_too(wire_api, transport):
    seen: dict[str, str] = {}
    model = _recording_model(seen, wire_api=wire_api, transport=transport)
    result = await run_copilot(CopilotEval(model=model, tools=(lookup,), timeout_s=90), "check account A-7")
    assert result.success, result.error
    assert result.tool_calls_for("lookup")[0].sent_to_model == seen["call_lookup"]
    assert result.tool_calls_for("view")[0].sent_to_model == seen["call_view"]


async def test_a_rejected_result_keeps_its_type_and_the_text_meant_for_the_model():
    def deny(amount: float) -> Any:
        """Refund an amount."""
        return ToolResult(text_result_for_llm="The user declined the refund.", result_type="rejected", error="declined")

    script = ScriptedModel.from_dict(
        {"rules": [{"turns": [{"tool_calls": [{"name": "deny", "arguments": {"amount": 5}}]}, {"text": "ok"}]}]}
    )
    result = await run_copilot(CopilotEval(model=script, tools=(deny,), audit_requests=True, timeout_s=60), "refund")
    call = result.all_tool_calls[0]
    assert (call.success, call.result_type, call.error) == (False, "rejected", "declined")
    assert call.sent_to_model == "The user declined the refund."
