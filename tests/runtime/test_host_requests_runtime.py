"""Requests of the real runtime to its host, answered at once, and the per-case usage budgets.

Through runtime 1.0.102 with scripted and function models, offline:
- an HTTP MCP server that answers 401 with an OAuth challenge makes the runtime ask for a login
  (``mcp.oauth_required``); one with ``headersRefreshTtlMs`` asks for dynamic headers
  (``mcp.headers_refresh_required``). Both are answered at once (no login, no headers) and
  recorded; the run goes on without those servers, as it does for a server that needs a login.
- ``max_tokens``: the model call that crosses it (counts from the runtime's own usage reports) is
  the last one; the tool call it asked for still runs. A model that reports no counts makes the
  budget unenforceable, and the run says so.
- ``max_ai_credits`` reaches the runtime's session limit (the runtime tells the model what is
  left in every request); a BYOK or scripted model is not billed in AI credits, so the limit
  cannot run out offline (``test_host_defaults.py`` answers ``session_limits_exhausted``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from copilot_eval import CopilotEval, FunctionModel, ScriptedModel, run_copilot
from copilot_eval.loopback_server import LoopbackServer

pytestmark = pytest.mark.runtime


async def _protected_mcp(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Every MCP request refused with 401 and an OAuth challenge; the protected-resource metadata served."""
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    base = f"http://127.0.0.1:{scope['server'][1]}"
    if scope["path"].startswith("/.well-known/oauth-protected-resource"):
        body = json.dumps({"resource": f"{base}/mcp", "authorization_servers": [base]}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
        return
    challenge = f'Bearer resource_metadata="{base}/.well-known/oauth-protected-resource"'.encode()
    await send({"type": "http.response.start", "status": 401, "headers": [(b"www-authenticate", challenge)]})
    await send({"type": "http.response.body", "body": b'{"error": "unauthorized"}'})


async def test_an_oauth_login_and_dynamic_headers_are_answered_at_once_and_recorded() -> None:
    async with LoopbackServer(_protected_mcp) as server:
        agent = CopilotEval(
            # The answer waits 2 s: the runtime connects optional servers beside the first turn, and a
            # session that ended at once (a loaded machine) recorded "dyn" still pending, before its 401.
            model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "done", "delay_s": 2}]}]}),
            timeout_s=60,
            mcp_servers={
                "crm": {"type": "http", "url": f"{server.url}/mcp", "optional": True},
                "dyn": {"type": "http", "url": f"{server.url}/dyn", "headersRefreshTtlMs": 1000, "optional": True},
            },
        )
        result = await run_copilot(agent, "hello")
    assert result.success, result.error
    assert {(s.name, s.status) for s in result.mcp_servers} == {("crm", "needs-auth"), ("dyn", "needs-auth")}
    logins = [r for r in result.host_requests if r.kind == "mcp_oauth"]
    assert {r.asked_by for r in logins} >= {"crm"}
    for login in logins:
        assert (login.answered_by, login.action, login.outcome) == (
            "default: no interactive login",
            "decline",
            "cancelled",
        )
        assert login.completed and login.details["reason"] == "initial"
    headers = [r for r in result.host_requests if r.kind == "mcp_headers"]
    assert headers and all(r.asked_by == "dyn" and r.outcome == "none" and r.completed for r in headers)
    assert headers[0].answered_by == "default: no dynamic headers"
    assert all(r.kind in ("mcp_oauth", "mcp_headers") for r in result.host_requests)


def _tool_turn(name: str, usage: dict[str, int] | None) -> dict[str, Any]:
    call = {"name": "create", "arguments": {"path": "{working_directory}/" + name, "file_text": "x"}}
    return {"tool_calls": [call], "usage": usage}


async def test_the_model_call_that_crosses_max_tokens_is_the_last_and_its_tool_call_runs() -> None:
    script = {
        "rules": [
            {
                "turns": [
                    _tool_turn("one.txt", {"input_tokens": 400, "output_tokens": 100}),
                    _tool_turn("two.txt", {"input_tokens": 450, "output_tokens": 50}),
                    {"text": "done", "usage": {"input_tokens": 500, "output_tokens": 10}},
                ]
            }
        ]
    }
    agent = CopilotEval(model=ScriptedModel.from_dict(script), timeout_s=60, max_tokens=800)
    result = await run_copilot(agent, "write two files")
    assert (result.success, result.stop_reason) == (False, "usage_budget_exceeded")
    assert result.error is not None and result.error.startswith(
        "usage budget exceeded: max_tokens=800, used 1000 tokens (input plus output over 2 model calls)"
    )
    assert [entry.input_tokens for entry in result.usage] == [400, 450], "no model call after the crossing one"
    assert [call.success for call in result.tool_calls_for("create")] == [True, True]
    assert (Path(result.working_directory) / "two.txt").exists(), "the crossing call's tool call ran"
    assert result.configuration["max_tokens"] == 800

    unreported = {"rules": [{"turns": [{"text": "done", "usage": None}]}]}
    result = await run_copilot(agent.with_options(model=ScriptedModel.from_dict(unreported)), "hello")
    assert result.success and result.total_input_tokens is None
    assert result.warnings == [
        "max_tokens=800 could not be enforced: 1 of 1 model calls reported no token counts, so the 0 tokens "
        "counted are a lower bound"
    ]


async def test_max_ai_credits_reaches_the_runtimes_session_limit() -> None:
    seen: list[list[dict[str, Any]]] = []

    def model(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
        seen.append(messages)
        return "done"

    result = await run_copilot(CopilotEval(model=FunctionModel(model), timeout_s=60, max_ai_credits=30), "hello")
    assert result.success, result.error
    assert result.configuration["session_limits"] == {"max_ai_credits": 30}
    (messages,) = seen
    status = [m["content"] for m in messages if m["role"] == "user" and "session_limits_status" in m["content"]]
    assert status and "Remaining session limits: 30 AI credits" in status[0], "the runtime tells the model"
    assert result.host_requests == [], "a BYOK model's AI credits are not counted: the limit never runs out"
