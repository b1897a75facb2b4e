"""How copilot-eval's hooks and the user's compose, and what the evidence keeps (no runtime needed)."""

from __future__ import annotations

from typing import Any

import pytest

from copilot_eval import CopilotEval
from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence.hook import OURS, THEIRS
from copilot_eval.runtime.session.hooks import SessionHooks

TOOL_INPUT = {"toolName": "lookup", "toolArgs": {"account": "A-1"}, "sessionId": "s"}


def _deny(reason: str) -> Any:
    return lambda _input, _context: {"permissionDecision": "deny", "permissionDecisionReason": reason}


async def test_a_refusal_from_either_stands_and_both_are_recorded() -> None:
    hooks = SessionHooks({"on_pre_tool_use": _deny("budget")}, {"on_pre_tool_use": _deny("frozen")})
    answer = await hooks.handlers()["on_pre_tool_use"](dict(TOOL_INPUT), {})
    assert answer["permissionDecisionReason"] == "budget"  # the first refusal is what the runtime is told
    (call,) = hooks.calls
    assert [(d.decided_by, d.decision, d.reason) for d in call.decisions] == [
        (OURS, "deny", "budget"),
        (THEIRS, "deny", "frozen"),
    ]

    theirs_only_refuses = SessionHooks({"on_pre_tool_use": lambda *_: None}, {"on_pre_tool_use": _deny("frozen")})
    answer = await theirs_only_refuses.handlers()["on_pre_tool_use"](dict(TOOL_INPUT), {})
    assert answer == {"permissionDecision": "deny", "permissionDecisionReason": "frozen"}


async def test_the_users_output_passes_through_when_nobody_refuses() -> None:
    def modify(_input: Any, _context: Any) -> Any:
        return {"modifiedArgs": {"account": "A-9"}, "additionalContext": "checked"}

    hooks = SessionHooks({"on_pre_tool_use": lambda *_: None}, {"on_pre_tool_use": modify, "on_agent_stop": modify})
    handlers = hooks.handlers()
    assert set(handlers) == {"on_pre_tool_use", "on_agent_stop"}
    assert await handlers["on_pre_tool_use"](dict(TOOL_INPUT), {}) == modify(None, None)
    assert hooks.their_hooks == ["on_pre_tool_use", "on_agent_stop"]


async def test_a_hook_that_raises_counts_as_no_answer_and_its_error_is_kept() -> None:
    def broken(_input: Any, _context: Any) -> Any:
        raise KeyError("toolArgs")

    async def asynchronous(_input: Any, _context: Any) -> Any:
        return {"decision": "block", "reason": "not now"}

    hooks = SessionHooks({}, {"on_pre_tool_use": broken, "on_user_prompt_submitted": asynchronous})
    assert await hooks.handlers()["on_pre_tool_use"](dict(TOOL_INPUT), {}) is None
    assert await hooks.handlers()["on_user_prompt_submitted"]({"prompt": "hi"}, {}) == {
        "decision": "block",
        "reason": "not now",
    }
    broke, blocked = (call.decisions[0] for call in hooks.calls)
    assert (broke.decision, broke.error) == (None, "KeyError: 'toolArgs'")
    assert (blocked.hook, blocked.decision, blocked.reason, blocked.refused) == (
        "userPromptSubmitted",
        "block",
        "not now",
        True,
    )


def test_no_hooks_means_no_hook_round_trips() -> None:
    assert SessionHooks({}, None).handlers() is None


async def test_capture_gives_each_decision_the_call_id_of_its_hook_event() -> None:
    hooks = SessionHooks({}, {"on_pre_tool_use": _deny("frozen")})
    handler = hooks.handlers()["on_pre_tool_use"]
    for account in ("A-1", "A-2"):
        await handler({"toolName": "lookup", "toolArgs": {"account": account}}, {})
    events = [
        {"type": "session.start", "data": {"sessionId": "s"}},
        *(
            {
                "type": "hook.start",
                "data": {
                    "hookType": "preToolUse",
                    "input": {"toolCalls": [{"id": f"call_{n}", "name": "lookup", "args": {"account": f"A-{n}"}}]},
                },
            }
            for n in (1, 2)
        ),
        {"type": "session.idle", "data": {}},
    ]
    result = result_from_events(events, facts=RunFacts(hook_calls=tuple(hooks.calls)))
    assert [(d.tool_call_id, d.decision) for d in result.hook_decisions] == [("call_1", "deny"), ("call_2", "deny")]
    assert result_from_events(events).hook_decisions is None  # a saved log: nobody recorded the handlers


def test_hooks_and_handlers_in_extra_config_are_checked_when_the_agent_is_built() -> None:
    with pytest.raises(ValueError, match=r"extra_config\.hooks\.on_pretool_use: unknown hook \(known: on_pre_tool_use"):
        CopilotEval(model="m", extra_config={"hooks": {"on_pretool_use": lambda *_: None}})
    with pytest.raises(ValueError, match=r"extra_config\.hooks\.on_agent_stop: expected a function, got str"):
        CopilotEval(model="m", extra_config={"hooks": {"on_agent_stop": "stop"}})
    with pytest.raises(ValueError, match=r"extra_config\.on_event: expected a function, got list"):
        CopilotEval(model="m", extra_config={"on_event": []})
