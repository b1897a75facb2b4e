"""FunctionModel through the real Copilot runtime: the function sees the conversation and answers it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from copilot_eval import CallTool, CopilotEval, FunctionModel, run_copilot


def _balance_fn(seen: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]) -> Any:
    def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        seen.append((messages, tools))
        if messages[-1]["role"] == "tool":
            return f"Your balance: {messages[-1]['content']}"
        return CallTool("get_balance", {"account": "A-7"})

    return answer


def get_balance(account: str) -> str:
    """Return the balance of one account."""
    return f"{account}: 42.00 EUR"


@pytest.mark.runtime
@pytest.mark.parametrize(
    ("wire_api", "transport", "streaming"),
    [
        ("completions", "http", False),
        ("completions", "http", True),
        ("responses", "http", True),
        ("responses", "websockets", True),
    ],
)
async def test_a_function_answers_with_a_tool_call_then_text(wire_api: str, transport: str, streaming: bool) -> None:
    seen: list[Any] = []
    model = FunctionModel(_balance_fn(seen), wire_api=wire_api, transport=transport)
    agent = CopilotEval(model=model, tools=(get_balance,), streaming=streaming, timeout_s=60)
    result = await run_copilot(agent, "What is my balance?")
    assert result.success, result.error
    assert result.tool_was_called_with("get_balance", account="A-7")
    assert result.final_response == "Your balance: A-7: 42.00 EUR"
    first_messages, first_tools = seen[0]
    assert "What is my balance?" in first_messages[-1]["content"] and first_messages[-1]["role"] == "user"
    assert "get_balance" in [tool["name"] for tool in first_tools]
    second_messages = seen[-1][0]
    assert second_messages[-2]["tool_calls"][0]["name"] == "get_balance"
    assert second_messages[-2]["tool_calls"][0]["arguments"] == {"account": "A-7"}
    assert result.configuration["model_source"].startswith("function (")


@pytest.mark.runtime
async def test_an_async_function_is_awaited() -> None:
    async def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
        await asyncio.sleep(0)
        return f"{len([m for m in messages if m['role'] == 'user'])} user message(s) seen"

    result = await run_copilot(CopilotEval(model=FunctionModel(answer)), "hello")
    assert result.success, result.error
    assert result.final_response == "1 user message(s) seen"


@pytest.mark.runtime
async def test_a_failing_function_ends_the_run_with_its_error_named() -> None:
    def broken(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        raise LookupError("no answer for this prompt")

    result = await run_copilot(CopilotEval(model=FunctionModel(broken), timeout_s=60), "hello")
    assert not result.success
    assert result.stop_reason == "execution_error"
    assert "broken failed: LookupError: no answer for this prompt" in (result.error or "")


def test_a_bad_return_value_and_bad_settings_are_named() -> None:
    from copilot_eval.models.function.returns import read_result

    with pytest.raises(TypeError, match="must return text"):
        read_result(42)
    with pytest.raises(TypeError, match="a non-empty list of text and CallTool"):
        read_result(["fine", 42])
    assert read_result(["Checking", " now.", CallTool("a"), CallTool("b")]) == (
        "Checking now.",
        (CallTool("a"), CallTool("b")),
    )
    with pytest.raises(ValueError, match="websockets"):
        FunctionModel(lambda m, t: "x", transport="websockets")
    with pytest.raises(TypeError, match="callable"):
        FunctionModel("not a function")  # type: ignore[arg-type]
