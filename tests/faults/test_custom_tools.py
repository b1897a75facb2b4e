"""Custom Python tools: define_tool tools and plain callables, sync and async, through the runtime."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from copilot import define_tool
from pydantic import BaseModel

from copilot_eval import CopilotEval, ScriptedModel, run_copilot

pytestmark = pytest.mark.runtime


class RecordingModel:
    """A ScriptedModel whose endpoint also keeps each request body the runtime sent."""

    live = False

    def __init__(self, model: ScriptedModel) -> None:
        self._model = model
        self.bodies: list[dict[str, Any]] = []
        self.session_model = model.session_model
        self.provider_config = model.provider_config

    def endpoint(self, **options: Any) -> Any:
        inner, bodies = self._model.endpoint(**options), self.bodies

        class Recorder:
            async def send_request(self, request: Any, ctx: Any) -> Any:
                bodies.append(json.loads(request.content))
                return await inner.send_request(request, ctx)

            async def open_websocket(self, ctx: Any) -> Any:
                return await inner.open_websocket(ctx)

        return Recorder()


class Order(BaseModel):
    order_id: str


def _define_tools() -> tuple[Any, Any]:
    def order_status(params: Order) -> str:
        return f"order {params.order_id}: shipped on thread {threading.current_thread().name}"

    async def order_total(params: Order) -> str:
        await asyncio.sleep(0)
        return f"order {params.order_id}: 12.50 EUR"

    return (
        define_tool("order_status", description="Status of an order", handler=order_status, params_type=Order),
        define_tool("order_total", description="Total of an order", handler=order_total, params_type=Order),
    )


def convert(amount: float, currency: str = "EUR") -> str:
    """Convert an amount of money into another currency.

    This second paragraph is not part of the tool description.
    """
    return f"{amount * 2:g} {currency} on thread {threading.current_thread().name}"


async def weekday(date: str) -> str:
    """Name the weekday of an ISO date."""
    await asyncio.sleep(0)
    return f"{date} is a Monday"


CALLS = [
    {"name": "order_status", "arguments": {"order_id": "A7"}},
    {"name": "order_total", "arguments": {"order_id": "A7"}},
    {"name": "convert", "arguments": {"amount": 3, "currency": "USD"}},
    {"name": "weekday", "arguments": {"date": "2024-01-01"}},
]


@pytest.fixture(scope="module")
async def tools_run(fault_pool):
    """One run that calls every kind of tool once, recording what the model received."""
    status, total = _define_tools()
    model = RecordingModel(ScriptedModel([{"turns": [{"tool_calls": CALLS}, {"text": "all done"}]}]))
    agent = CopilotEval(model=model, tools=(status, total, convert, weekday), timeout_s=20)
    result = await run_copilot(agent, "check my order", pool=fault_pool)
    return result, model.bodies


def test_every_kind_of_tool_runs_and_its_result_is_evidence(tools_run):
    result, _ = tools_run
    assert (result.success, result.stop_reason) == (True, "completed"), result.error
    results = {call.name: call.result for call in result.all_tool_calls}
    assert results["order_total"] == "order A7: 12.50 EUR"
    assert results["weekday"] == "2024-01-01 is a Monday"
    # Sync handlers, define_tool's included, run in a worker thread, never on the event loop.
    assert results["order_status"].startswith("order A7: shipped on thread copilot-eval-tool-")
    assert results["convert"].startswith("6 USD on thread copilot-eval-tool-")


def test_a_plain_callables_schema_comes_from_its_hints_and_docstring(tools_run):
    _, bodies = tools_run
    offered = {tool["function"]["name"]: tool["function"] for tool in bodies[0]["tools"]}
    convert_tool = offered["convert"]
    assert convert_tool["description"] == "Convert an amount of money into another currency."
    schema = convert_tool["parameters"]
    assert schema["properties"]["amount"]["type"] == "number"
    assert schema["properties"]["currency"]["default"] == "EUR"
    assert schema["required"] == ["amount"]
    assert offered["weekday"]["parameters"]["required"] == ["date"]
    assert offered["order_status"]["parameters"]["required"] == ["order_id"]


def test_the_configuration_snapshot_records_the_schema_but_no_handler(tools_run):
    result, bodies = tools_run
    snapshot = {tool["name"]: tool for tool in result.configuration["tools"]}
    offered = {tool["function"]["name"]: tool["function"]["parameters"] for tool in bodies[0]["tools"]}
    assert snapshot["convert"]["parameters"]["properties"] == offered["convert"]["properties"]
    assert all("handler" not in tool for tool in snapshot.values())


async def test_invalid_arguments_fail_the_call_with_the_validation_message(fault_pool):
    model = ScriptedModel(
        [{"turns": [{"tool_calls": [{"name": "convert", "arguments": {"amount": "lots"}}]}, {"text": "ok"}]}]
    )
    result = await run_copilot(CopilotEval(model=model, tools=(convert,), timeout_s=20), "convert", pool=fault_pool)
    call = result.all_tool_calls[0]
    assert (call.completion_received, call.success) == (True, False)
    assert "Invalid tool arguments" in call.error and "amount" in call.error
