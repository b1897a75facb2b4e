"""run_copilot through the real Copilot runtime, answered by the ScriptedModel."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest

from copilot_eval import ByokProvider, CopilotEval, ScriptedModel, run_copilot
from copilot_eval.runtime.process.pool import RuntimePool, shared_pool

pytestmark = pytest.mark.runtime

HERE = Path(__file__).parent


def scripted(*rules: dict) -> ScriptedModel:
    """A ScriptedModel from rules written inline."""
    return ScriptedModel.from_dict({"rules": list(rules)})


async def test_plain_text_answer() -> None:
    agent = CopilotEval(model=scripted({"turns": [{"text": "Paris is the capital of France."}]}))
    result = await run_copilot(agent, "What is the capital of France?")
    assert result.success and result.stop_reason == "completed"
    assert result.final_response == "Paris is the capital of France."
    assert [t.role for t in result.turns] == ["user", "assistant"]
    assert result.turns[0].content == "What is the capital of France?"
    assert result.all_tool_calls == []
    assert result.model_used == "scripted-model"
    assert result.duration_ms is not None and result.duration_ms > 0


async def test_custom_python_tool_is_called_with_its_arguments() -> None:
    seen: list[str] = []

    def get_balance(account: str) -> str:
        """Return the balance of one account."""
        seen.append(account)
        return f"{account}: 42.00 EUR"

    model = scripted(
        {
            "turns": [
                {"tool_calls": [{"name": "get_balance", "arguments": {"account": "A-7"}}]},
                {"text": "Your balance: {last_tool_result}"},
            ]
        }
    )
    result = await run_copilot(CopilotEval(model=model, tools=(get_balance,)), "What is my balance?")
    assert result.success
    assert seen == ["A-7"]
    assert result.tool_was_called_with("get_balance", account="A-7")
    (call,) = result.tool_calls_for("get_balance")
    assert call.completion_received is True and call.success is True
    assert call.result == "A-7: 42.00 EUR"
    assert result.final_response == "Your balance: A-7: 42.00 EUR"
    schema = result.configuration["tools"][0]["parameters"]
    assert schema["properties"]["account"]["type"] == "string"
    assert result.configuration["tools"][0]["description"] == "Return the balance of one account."


async def test_builtin_create_tool_writes_a_file_the_result_can_read() -> None:
    model = scripted(
        {
            "turns": [
                {
                    "tool_calls": [
                        {
                            "name": "create",
                            "arguments": {"path": "{working_directory}/hello.txt", "file_text": "hello\n"},
                        }
                    ]
                },
                {"text": "Created hello.txt"},
            ]
        }
    )
    result = await run_copilot(CopilotEval(model=model), "Create a hello file")
    assert result.success
    assert result.file_exists("hello.txt")
    assert result.file("hello.txt") == "hello\n"
    assert result.files_matching("**/*.txt") == ["hello.txt"]
    assert result.permission_requested, "the built-in write tool asks for permission"


async def test_mcp_server_tool_is_called_over_stdio() -> None:
    model = scripted(
        {
            "turns": [
                {"tool_calls": [{"name": "notes-read_note", "arguments": {"title": "groceries"}}]},
                {"text": "done"},
            ]
        }
    )
    agent = CopilotEval(
        model=model, mcp_servers={"notes": {"command": sys.executable, "args": [str(HERE / "mcp_notes_server.py")]}}
    )
    result = await run_copilot(agent, "Read my groceries note")
    assert result.success, result.error
    (call,) = result.tool_calls_for("notes-read_note")
    assert call.success is True
    assert "milk, bread" in call.result
    assert "command" not in json.dumps(result.configuration["mcp_servers"]), "commands stay out of evidence"


async def test_model_http_500_fails_the_run_without_hanging() -> None:
    model = scripted({"turns": [{"error": {"status": 500, "message": "upstream exploded", "retry_after": 0}}]})
    started = time.monotonic()
    result = await run_copilot(CopilotEval(model=model, timeout_s=30), "hello")
    assert time.monotonic() - started < 30
    assert result.success is False
    assert result.stop_reason == "execution_error"
    assert result.error and "500" in result.error


async def test_a_model_that_never_answers_is_stopped_by_the_timeout() -> None:
    model = scripted(
        {
            "turns": [
                {
                    "tool_calls": [
                        {"name": "create", "arguments": {"path": "{working_directory}/a.txt", "file_text": "a"}}
                    ]
                },
                {"delay_s": 600, "text": "too late"},
            ]
        }
    )
    started = time.monotonic()
    result = await run_copilot(CopilotEval(model=model, timeout_s=3), "make a file")
    elapsed = time.monotonic() - started
    assert elapsed < 3 + 2
    assert result.success is False and result.stop_reason == "timeout"
    assert "timed out after 3 s" in result.error
    assert result.tool_was_called("create"), "evidence captured before the hang is kept"
    assert result.file("a.txt") == "a"


async def test_byok_path_over_loopback_http(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-do-not-leak-0123456789"
    monkeypatch.setenv("TEST_BYOK_KEY", secret)
    model = scripted({"turns": [{"text": "served over HTTP"}]})
    async with model.serve() as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        agent = CopilotEval(
            model=model.session_model, provider=ByokProvider(base_url=server.base_url, api_key_env="TEST_BYOK_KEY")
        )
        result = await run_copilot(agent, "hello over the wire")
    assert result.success, result.error
    assert result.final_response == "served over HTTP"
    assert secret not in result.model_dump_json(), "the API key never reaches evidence"
    assert result.configuration["provider"]["base_url"] == server.base_url


async def test_eight_concurrent_runs_share_one_runtime() -> None:
    pool = RuntimePool(max_runtimes=1)
    model = scripted(
        {
            "when": {"prompt_matches": r"number (\d+)"},
            "turns": [
                {
                    "tool_calls": [
                        {
                            "name": "create",
                            "arguments": {"path": "{working_directory}/out.txt", "file_text": "{prompt}"},
                        }
                    ]
                },
                {"text": "echo: {prompt}"},
            ],
        },
    )
    agent = CopilotEval(model=model)
    try:
        results = await asyncio.gather(*(run_copilot(agent, f"number {i}", pool=pool) for i in range(8)))
        assert len(pool.processes()) == 1
    finally:
        await pool.close()
    assert all(r.success for r in results), [r.error for r in results]
    assert [r.final_response for r in results] == [f"echo: number {i}" for i in range(8)]
    assert len({r.working_directory for r in results}) == 8
    assert [r.file("out.txt") for r in results] == [f"number {i}" for i in range(8)]


async def test_concurrent_runs_spread_over_the_pools_runtimes_and_sequential_runs_reuse_one() -> None:
    pool = RuntimePool(max_runtimes=2)
    agent = CopilotEval(model=scripted({"turns": [{"delay_s": 0.3, "text": "ok"}]}))
    try:
        await run_copilot(agent, "alone", pool=pool)
        await run_copilot(agent, "alone again", pool=pool)
        assert len(pool.processes()) == 1, "sequential runs need only one runtime"
        results = await asyncio.gather(*(run_copilot(agent, f"together {i}", pool=pool) for i in range(6)))
        assert len(pool.processes()) == 2
    finally:
        await pool.close()
    assert all(r.success for r in results)


async def test_a_conversation_is_played_in_one_session() -> None:
    model = scripted(
        {"when": {"prompt_contains": "first"}, "turns": [{"text": "one"}]},
        {"when": {"prompt_contains": "second"}, "turns": [{"text": "two"}]},
    )
    result = await run_copilot(CopilotEval(model=model), ["the first question", "the second question"])
    assert result.success
    assert [(t.role, t.content) for t in result.turns] == [
        ("user", "the first question"),
        ("assistant", "one"),
        ("user", "the second question"),
        ("assistant", "two"),
    ]


async def test_the_shared_pool_is_reused_between_runs() -> None:
    agent = CopilotEval(model=scripted({"turns": [{"text": "ok"}]}))
    await run_copilot(agent, "one")
    before = list(shared_pool().processes())
    await run_copilot(agent, "two")
    assert before and shared_pool().processes() == before, "no runtime was started for the second run"


async def test_empty_client_mode_offers_only_the_allowed_tools() -> None:
    model = scripted(
        {
            "turns": [
                {
                    "tool_calls": [
                        {"name": "create", "arguments": {"path": "{working_directory}/e.txt", "file_text": "e"}}
                    ]
                },
                {"text": "ok"},
            ]
        }
    )
    agent = CopilotEval(model=model, client_mode="empty", allowed_tools=("create",), audit_requests=True)
    result = await run_copilot(agent, "make a file")
    assert result.success, result.error
    assert result.file("e.txt") == "e"
    assert [record.tool_names for record in result.request_audit] == [["create"], ["create"]]
