"""Requests the runtime handed to the host while the agent ran, and how each was answered.

The runtime can put several kinds of request to its host and wait for the answer (SDK 1.0.27,
runtime 1.0.102; docs/evidence.md has the table): the agent's own question to the user (the
``ask_user`` tool), an MCP server's elicitation (a form, or a URL to open) and request for LLM
sampling, an MCP server's OAuth login or dynamic headers, the session's AI-credit limit running
out, leaving plan mode, switching to auto mode, a queued slash command. In a test nobody sits at
the keyboard, so each is answered at once, by the agent's policy or a safe default (decline, stop,
no interactive login); a kind this version does not know is declined and recorded as ``unknown``,
never waited on. The record says which answer was given, by whom, and what the runtime did.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

HostRequestKind = Literal[
    "question",
    "elicitation",
    "sampling",
    "mcp_oauth",
    "mcp_headers",
    "session_limits",
    "exit_plan_mode",
    "auto_mode_switch",
    "queued_command",
    "unknown",
]
ReplyAction = Literal["accept", "decline", "cancel"]


class HostRequest(BaseModel):
    """One request to the host: who asked, what, the answer given, who gave it, and when.

    ``asked_by`` is ``"agent"`` for the agent's own question and the MCP server's name for an
    elicitation or a sampling request. ``message`` is the question, the elicitation's message, or
    the text of the sampling request's last message. ``answer`` is the text answered to a
    question, the form values of an accepted form, or the text a sampling model gave; ``None``
    when nothing was answered. ``answered_by`` names the policy that decided (``user_answers[0]``,
    ``function``, ``sampling model ...``, ``no matching answer: declined``, ...). Times are the
    runtime's own timestamps of the request and of its completion. ``event_type`` is the runtime's
    own name for the request (``mcp.oauth_required``, ...) and ``details`` what it said besides the
    message (the server's URL and the reason of an OAuth request, the AI credits used and the
    limit, the plan's actions); ``outcome`` is the runtime's word for how it ended
    (``cancelled``, ``none``, ...), when its completion event carries one.
    """

    # Optional fields alike in shape to HookDecision's, ObservedCall's, ContentItem's, SubagentInvocation's: one
    # request's facts. tool_call_id means what ToolCallRef's does, but a request names no tool: no base for one field.
    kind: HostRequestKind
    request_id: str | None = None
    asked_by: str | None = None
    agent_id: str | None = None
    tool_call_id: str | None = None
    mode: Literal["form", "url"] | None = None
    message: str | None = None
    choices: list[str] | None = None
    allow_freeform: bool | None = None
    requested_schema: dict[str, Any] | None = None
    url: str | None = None
    sampling_request: dict[str, Any] | None = None
    action: ReplyAction | None = None
    answer: Any = None
    response: dict[str, Any] | None = None
    answered_by: str | None = None
    problem: str | None = None
    requested_at: str | None = None
    answered_at: str | None = None
    completed: bool | None = None
    event_type: str | None = None
    details: dict[str, Any] | None = None
    outcome: str | None = None

    @property
    def declined(self) -> bool:
        """Whether the request was declined or cancelled rather than answered."""
        return self.action in ("decline", "cancel")

    def __str__(self) -> str:
        who = self.asked_by or "?"
        outcome = self.action or "unanswered"
        return f"{self.kind} from {who}: {(self.message or '')[:80]!r} -> {outcome}"


__all__ = ["HostRequest", "HostRequestKind", "ReplyAction"]
