"""SDK hooks given through extra_config run beside copilot-eval's own, through the real runtime.

One run: the tool budget (our pre-tool-use hook) and the user's pre-tool-use, post-tool-use and
session-start hooks, with the user's event listener. Before, any hook in extra_config failed the
run before its first model call (``create_session() got multiple values for keyword argument
'hooks'``).
"""

from __future__ import annotations

from typing import Any

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.evidence.hook import OURS, THEIRS

pytestmark = pytest.mark.runtime


def lookup(account: str) -> str:
    """Look an account up."""
    return f"{account}: 42 EUR"


def _call(account: str) -> dict[str, Any]:
    return {"tool_calls": [{"name": "lookup", "arguments": {"account": account}}]}


@pytest.fixture(scope="module")
async def hooked_run() -> tuple[Any, dict[str, list[Any]]]:
    seen: dict[str, list[Any]] = {"pre": [], "post": [], "start": [], "events": []}

    def pre(hook_input: dict[str, Any], _context: Any) -> Any:
        account = hook_input["toolArgs"]["account"]
        seen["pre"].append(account)
        if account == "A-2":
            return {"permissionDecision": "deny", "permissionDecisionReason": "A-2 is frozen"}
        return None

    async def post(hook_input: dict[str, Any], _context: Any) -> Any:
        seen["post"].append(hook_input["toolArgs"]["account"])
        return {"additionalContext": "balances are in EUR"}

    def start(hook_input: dict[str, Any], _context: Any) -> None:
        seen["start"].append(hook_input["source"])

    script = ScriptedModel.from_dict(
        {"rules": [{"turns": [_call("A-1"), _call("A-2"), _call("A-3"), {"text": "done"}]}]}
    )
    agent = CopilotEval(
        model=script,
        tools=(lookup,),
        max_tool_calls=2,
        timeout_s=60,
        extra_config={
            "hooks": {"on_pre_tool_use": pre, "on_post_tool_use": post, "on_session_start": start},
            "on_event": lambda event: seen["events"].append(event.type.value),
        },
    )
    return await run_copilot(agent, "check three accounts"), seen


def test_the_users_hooks_run_and_ours_still_enforces_the_budget(hooked_run):
    result, seen = hooked_run
    assert result.stop_reason == "tool_budget_exceeded", result.error
    assert seen["start"] == ["new"]
    assert seen["pre"] == ["A-1", "A-2", "A-3"]  # ours refused A-3, theirs still ran for it
    assert seen["post"] == ["A-1"]
    first, second = result.all_tool_calls[:2]
    assert first.success is True and first.result.startswith("A-1: 42 EUR")
    assert "balances are in EUR" in first.result  # the runtime added their post-tool-use context
    assert second.success is False and "A-2 is frozen" in (second.error or "")


def test_the_evidence_keeps_what_each_hook_decided(hooked_run):
    result, _ = hooked_run
    pre = [d for d in result.hook_decisions if d.hook == "preToolUse"]
    assert [(d.decided_by, d.decision) for d in pre] == [
        (OURS, None),
        (THEIRS, None),
        (OURS, None),
        (THEIRS, "deny"),
        (OURS, "deny"),
        (THEIRS, None),
    ]
    assert pre[3].reason == "A-2 is frozen" and "max_tool_calls=2" in (pre[4].reason or "")
    ids = [call.call_id for call in result.all_tool_calls]
    assert [d.tool_call_id for d in pre[::2]] == ids[:3]
    post = [d for d in result.hook_decisions if d.hook == "postToolUse"]
    assert [(d.decided_by, d.returned) for d in post] == [(THEIRS, {"additionalContext": "balances are in EUR"})]
    assert result.configuration["hooks"] == ["on_pre_tool_use", "on_post_tool_use", "on_session_start"]


def test_the_users_event_listener_sees_the_session(hooked_run):
    _, seen = hooked_run
    assert seen["events"][0] == "session.start"
    assert seen["events"].count("tool.execution_start") >= 3
