"""The safe default answer to each request the runtime can put to its host, sent at once.

Nobody sits at the keyboard in a test, so a request the agent's policies do not answer
(``user_answers`` for questions and elicitations, ``sampling``) is answered here, the moment its
event arrives, and never left to the run's timeout (SDK 1.0.27, runtime 1.0.102):

| kind | the runtime asks | default answer | then |
|---|---|---|---|
| ``session_limits`` | the session's ``max_ai_credits`` are used up: stop or add credits? | stop (``cancel``) | the run stops: ``usage_budget_exceeded`` |
| ``mcp_headers`` | dynamic headers for an HTTP MCP server | none to give (``none``) | the server gets no dynamic headers |
| ``mcp_oauth`` | an interactive OAuth login for a remote MCP server | no interactive login: the runtime's own token refresh where it offers one, else ``cancelled`` | the server is ``needs-auth``, as without a login |
| ``exit_plan_mode`` | approve the agent's plan and leave plan mode | not approved | the agent stays in plan mode |
| ``auto_mode_switch`` | switch to auto model selection after a rate limit | ``no`` | the session keeps its model |
| ``question`` | the agent's ``ask_user``, when no policy answers it | declined | the agent is told the user declined |
| ``queued_command`` | run a slash command the host queued | not handled | the queue moves on |
| ``unknown`` | a kind of request this version does not know | declined: no answer exists for it | the run stops (``execution_error``) instead of waiting |

Three of them reach a host only when it registers a handler (``mcp_oauth``: copilot-eval does for
an agent with a remote MCP server, see ``oauth_answer``; ``exit_plan_mode``, ``auto_mode_switch``: it does not, since the handler
makes the runtime offer the model a tool, ``exit_plan_mode``, that the plain SDK does not); a
handler of the user's (``extra_config``) then answers instead, and the default stays a net for a
request that arrives anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from copilot.generated import rpc

from copilot_eval.agent.user_answers import DECLINED_ANSWER, Action
from copilot_eval.capture.host_requests import limit_details
from copilot_eval.evidence import StopReason
from copilot_eval.evidence.host_request import HostRequestKind

__all__ = ["DefaultAnswer", "answer_by_default", "default_answer", "oauth_answer"]


# Alike in shape only to security/playable.py's Judgement (__all__ then a small frozen record); unrelated meaning.
@dataclass(frozen=True)
class DefaultAnswer:
    """What the default says to one request: the action recorded, who decided, and the stop it asks for."""

    action: Action
    answered_by: str
    answer: Any = None
    stop: tuple[StopReason, str] | None = None


def _credits(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else "?"


def default_answer(kind: HostRequestKind, event_type: str, data: dict[str, Any]) -> DefaultAnswer:
    """The default for one request (pure: what to record and whether the run must stop)."""
    if kind == "session_limits":
        limits = limit_details(data)
        message = (
            f"usage budget exceeded: max_ai_credits={_credits(limits['max_ai_credits'])}, "
            f"used {_credits(limits['used_ai_credits'])} AI credits (the runtime's session limit)"
        )
        return DefaultAnswer("cancel", "default: stop at the session limit", stop=("usage_budget_exceeded", message))
    if kind == "mcp_headers":
        return DefaultAnswer("decline", "default: no dynamic headers")
    if kind == "mcp_oauth":
        return DefaultAnswer("decline", "default: no interactive login", answer="cancelled")
    if kind == "exit_plan_mode":
        return DefaultAnswer("decline", "default: plan not approved")
    if kind == "auto_mode_switch":
        return DefaultAnswer("decline", "default: no switch to auto mode")
    if kind == "question":
        return DefaultAnswer("decline", "default: declined (no user_answers)", answer=DECLINED_ANSWER)
    if kind == "queued_command":
        return DefaultAnswer("decline", "default: not handled (copilot-eval runs no slash commands)")
    request = data.get("requestId")
    return DefaultAnswer(
        "decline",
        "default: declined (a kind of request copilot-eval does not know)",
        stop=(
            "execution_error",
            f"the runtime asked the host for {event_type!r} (request {request}), a kind of request this "
            "copilot-eval does not know how to answer; the run was stopped instead of waiting for an answer",
        ),
    )


async def answer_by_default(session: Any, kind: HostRequestKind, request_id: str) -> None:
    """Send the default answer over the session's RPC (nothing to send for an unknown kind)."""
    ui = session.rpc.ui
    if kind == "session_limits":
        await ui.handle_pending_session_limits_exhausted(
            rpc.UIHandlePendingSessionLimitsExhaustedRequest(
                request_id=request_id,
                response=rpc.UISessionLimitsExhaustedResponse(action=rpc.UISessionLimitsExhaustedResponseAction.CANCEL),
            )
        )
    elif kind == "mcp_headers":
        await session.rpc.mcp.headers.handle_pending_headers_refresh_request(
            rpc.MCPHeadersHandlePendingHeadersRefreshRequestRequest(
                request_id=request_id,
                result=rpc.MCPHeadersHandlePendingHeadersRefreshRequest(
                    kind=rpc.MCPHeadersHandlePendingHeadersRefreshRequestKind.NONE
                ),
            )
        )
    elif kind == "mcp_oauth":
        await session.rpc.mcp.oauth.handle_pending_request(
            rpc.MCPOauthHandlePendingRequest(
                request_id=request_id,
                result=rpc.MCPOauthPendingRequestResponse(kind=rpc.MCPOauthPendingRequestResponseKind.CANCELLED),
            )
        )
    elif kind == "exit_plan_mode":
        await ui.handle_pending_exit_plan_mode(
            rpc.UIHandlePendingExitPlanModeRequest(
                request_id=request_id, response=rpc.UIExitPlanModeResponse(approved=False)
            )
        )
    elif kind == "auto_mode_switch":
        await ui.handle_pending_auto_mode_switch(
            rpc.UIHandlePendingAutoModeSwitchRequest(request_id=request_id, response=rpc.UIAutoModeSwitchResponse.NO)
        )
    elif kind == "question":
        await ui.handle_pending_user_input(
            rpc.UIHandlePendingUserInputRequest(
                request_id=request_id, response=rpc.UIUserInputResponse(answer=DECLINED_ANSWER, was_freeform=True)
            )
        )
    elif kind == "queued_command":
        await session.rpc.commands.respond_to_queued_command(
            rpc.CommandsRespondToQueuedCommandRequest(request_id=request_id, result=rpc.QueuedCommandNotHandled())
        )


def oauth_answer(request: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The SDK answer to an MCP OAuth request, and who decided: never an interactive login.

    Where the runtime can refresh a stored token by itself (``runtimeRefreshSupported``) it is
    handed back to do so, which is what it does for a host that registered no handler; otherwise
    the login is cancelled and the server stays ``needs-auth``.
    """
    if request.get("runtimeRefreshSupported"):
        return {"kind": "runtimeRefresh"}, "default: no interactive login (the runtime's own token refresh)"
    return {"kind": "cancelled"}, "default: no interactive login"
