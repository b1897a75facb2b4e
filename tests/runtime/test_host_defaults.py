"""Every kind of request the runtime can put to its host is answered at once by its default, and recorded.

Fed to the runner's answering object directly with a recording stand-in for the session's RPC:
the kinds the runtime cannot be made to send offline (the session's AI-credit limit, leaving plan
mode, auto mode, a queued command, a kind this version does not know) are covered here; the real
runtime's requests are in ``test_host_requests_runtime.py``.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from copilot_eval import CopilotEval, ScriptedModel
from copilot_eval.agent.user_answers import DECLINED_ANSWER
from copilot_eval.capture.events import WIRE_ATTRIBUTE
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.session.host_defaults import oauth_answer
from copilot_eval.runtime.session.host_requests import HostAnswering

AGENT = CopilotEval(model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "ok"}]}]}))
REMOTE = AGENT.with_options(mcp_servers={"crm": {"type": "http", "url": "http://127.0.0.1:1/mcp"}})


class Recorder:
    """Any RPC namespace: every awaited call is kept as (name, params)."""

    def __init__(self, calls: list[tuple[str, Any]], fail: bool = False) -> None:
        self._calls, self._fail = calls, fail

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("handle_pending", "respond")) or name == "register_interest":

            async def call(params: Any) -> None:
                self._calls.append((name, params))
                if self._fail:
                    raise ConnectionError("session closed")

            return call
        return Recorder(self._calls, self._fail)


def _session(calls: list[tuple[str, Any]], *, fail: bool = False) -> Any:
    return SimpleNamespace(rpc=Recorder(calls, fail), on=lambda listener: None)


def _event(kind: str, data: dict[str, Any]) -> Any:
    typed = SimpleNamespace(type=SimpleNamespace(value=kind), data=SimpleNamespace(), agent_id=None)
    setattr(typed, WIRE_ATTRIBUTE, {"type": kind, "data": data})
    return typed


async def _answered(
    kind: str,
    data: dict[str, Any],
    *,
    user_handlers: frozenset[str] = frozenset(),
    fail: bool = False,
    agent: CopilotEval = AGENT,
) -> tuple[HostAnswering, list[tuple[str, Any]], RunControl]:
    control, calls = RunControl(), []
    host = HostAnswering(agent, control, caller_loop=None, user_handlers=user_handlers)
    host.attach(_session(calls, fail=fail), session_id="s", working_directory="/tmp")
    host.on_event(_event(kind, data))
    await host.settle()
    return host, calls, control


async def test_the_session_limit_is_answered_stop_and_the_run_stops_over_its_budget() -> None:
    host, calls, control = await _answered(
        "session_limits_exhausted.requested", {"requestId": "l1", "usedAiCredits": 30.2, "maxAiCredits": 30}
    )
    ((name, params),) = calls
    assert name == "handle_pending_session_limits_exhausted" and params.request_id == "l1"
    assert params.response.action.value == "cancel", "stop: no credits added"
    assert control.stop_reason == "usage_budget_exceeded"
    assert control.stop_message == (
        "usage budget exceeded: max_ai_credits=30, used 30.2 AI credits (the runtime's session limit)"
    )
    (answer,) = host.answers
    assert (answer.kind, answer.action, answer.request_id) == ("session_limits", "cancel", "l1")


@pytest.mark.parametrize(
    ("event_type", "rpc", "answer_shown"),
    [
        ("mcp.headers_refresh_required", "handle_pending_headers_refresh_request", "none"),
        ("mcp.oauth_required", "handle_pending_request", "cancelled"),
        ("exit_plan_mode.requested", "handle_pending_exit_plan_mode", False),
        ("auto_mode_switch.requested", "handle_pending_auto_mode_switch", "no"),
        ("user_input.requested", "handle_pending_user_input", DECLINED_ANSWER),
        ("command.queued", "respond_to_queued_command", False),
    ],
)
async def test_each_kind_nobody_answers_gets_its_safe_default_at_once(event_type, rpc, answer_shown) -> None:
    host, calls, control = await _answered(event_type, {"requestId": "r1", "question": "Which?", "command": "/x"})
    ((name, params),) = calls
    assert name == rpc and params.request_id == "r1"
    shown = {
        "handle_pending_headers_refresh_request": lambda p: p.result.kind.value,
        "handle_pending_request": lambda p: p.result.kind.value,
        "handle_pending_exit_plan_mode": lambda p: p.response.approved,
        "handle_pending_auto_mode_switch": lambda p: p.response.value,
        "handle_pending_user_input": lambda p: p.response.answer,
        "respond_to_queued_command": lambda p: p.result.handled,
    }[rpc](params)
    assert shown == answer_shown
    (answer,) = host.answers
    assert answer.action == "decline" and answer.answered_by.startswith("default: ")
    assert control.stop_reason is None, "a declined request does not end the run"


async def test_a_kind_this_version_does_not_know_is_declined_recorded_and_never_waited_on() -> None:
    host, calls, control = await _answered("canvas_choice.requested", {"requestId": "u1"})
    assert calls == [], "there is no answer to send for a kind nobody knows"
    (answer,) = host.answers
    assert (answer.kind, answer.action, answer.request_id) == ("unknown", "decline", "u1")
    assert control.stop_reason == "execution_error"
    assert "'canvas_choice.requested' (request u1)" in (control.stop_message or "")
    assert "instead of waiting" in (control.stop_message or "")


async def test_a_handler_of_the_users_answers_its_kind_and_the_record_names_it() -> None:
    host, calls, _ = await _answered(
        "exit_plan_mode.requested", {"requestId": "p1"}, user_handlers=frozenset({"on_exit_plan_mode_request"})
    )
    assert calls == [], "the user's handler answers; a second answer would contradict it"
    (answer,) = host.answers
    assert answer.answered_by == "extra_config on_exit_plan_mode_request" and answer.request_id == "p1"


async def test_requests_answered_by_our_own_handlers_are_not_answered_twice() -> None:
    for kind in ("elicitation.requested", "mcp.oauth_required", "permission.requested", "external_tool.requested"):
        host, calls, _ = await _answered(kind, {"requestId": "x1"}, agent=REMOTE)
        assert calls == [] and host.answers == [], kind


def test_the_oauth_handler_is_given_only_to_an_agent_with_a_remote_server() -> None:
    assert "on_mcp_auth_request" not in HostAnswering(AGENT, RunControl(), caller_loop=None).session_handlers()
    assert "on_mcp_auth_request" in HostAnswering(REMOTE, RunControl(), caller_loop=None).session_handlers()


async def test_an_answer_that_cannot_be_delivered_keeps_the_decision_and_says_why() -> None:
    host, _, _ = await _answered("auto_mode_switch.requested", {"requestId": "a1"}, fail=True)
    (answer,) = host.answers
    assert answer.action == "decline" and "ConnectionError: session closed" in (answer.problem or "")


def test_an_oauth_login_is_never_interactive() -> None:
    assert oauth_answer({"requestId": "o1"})[0] == {"kind": "cancelled"}
    handed_back, why = oauth_answer({"requestId": "o1", "runtimeRefreshSupported": True})
    assert handed_back == {"kind": "runtimeRefresh"} and "token refresh" in why


async def test_dynamic_headers_are_asked_for_only_when_a_server_wants_them() -> None:
    calls: list[tuple[str, Any]] = []
    host = HostAnswering(AGENT, RunControl(), caller_loop=None)
    host.attach(_session(calls), session_id="s", working_directory="/tmp")
    await host.register_interests({"plain": {"url": "http://127.0.0.1:1/mcp"}})
    assert calls == []
    await host.register_interests({"dyn": {"url": "http://127.0.0.1:1/mcp", "headersRefreshTtlMs": 1000}})
    ((name, params),) = calls
    assert name == "register_interest" and params.event_type == "mcp.headers_refresh_required"


def test_settle_is_bounded_for_answers_still_on_their_way() -> None:
    async def main() -> float:
        host = HostAnswering(AGENT, RunControl(), caller_loop=None)
        host._tasks.add(asyncio.ensure_future(asyncio.sleep(10)))
        started = asyncio.get_running_loop().time()
        await host.settle()
        return asyncio.get_running_loop().time() - started

    assert asyncio.run(main()) < 2
