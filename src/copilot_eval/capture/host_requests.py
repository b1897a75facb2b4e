"""Requests to the host from their events and the runner's answers: every kind the runtime can send.

Each request is a ``*.requested`` (or ``*_required``) event with a ``requestId`` and, once
answered, a ``*.completed`` event with the same id (measured with runtime 1.0.102). The kinds
this version knows are ``REQUEST_EVENTS``; their completions are ``COMPLETION_EVENTS``. What the
completion carries differs: the answer text of a question, the action and form values of an
elicitation, nothing for sampling (the answer comes from the runner's ``HostAnswer``), an
``outcome`` for MCP OAuth and headers, the chosen action for the others. An event of that shape
whose kind is not known (a later runtime) is a request all the same: it is recorded as
``unknown`` (``is_host_request`` says which events are requests), and the runner declines it.
``permission.requested`` and ``external_tool.requested`` are answered and recorded elsewhere
(``permissions``, tool calls).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from copilot_eval.capture.events import (
    agent_scope,
    dict_or_empty,
    event_data,
    event_type,
    list_or_empty,
    number_or_none,
    text_or_none,
)
from copilot_eval.capture.run_facts import HostAnswer
from copilot_eval.evidence import HostRequest
from copilot_eval.evidence.host_request import HostRequestKind, ReplyAction

_ACTIONS: tuple[ReplyAction, ...] = ("accept", "decline", "cancel")

#: The runtime's request events this version knows, and the kind each is recorded as.
REQUEST_EVENTS: dict[str, HostRequestKind] = {
    "user_input.requested": "question",
    "elicitation.requested": "elicitation",
    "sampling.requested": "sampling",
    "mcp.oauth_required": "mcp_oauth",
    "mcp.headers_refresh_required": "mcp_headers",
    "session_limits_exhausted.requested": "session_limits",
    "exit_plan_mode.requested": "exit_plan_mode",
    "auto_mode_switch.requested": "auto_mode_switch",
    "command.queued": "queued_command",
}
#: Each kind's completion event.
COMPLETION_EVENTS: dict[str, HostRequestKind] = {
    "user_input.completed": "question",
    "elicitation.completed": "elicitation",
    "sampling.completed": "sampling",
    "mcp.oauth_completed": "mcp_oauth",
    "mcp.headers_refresh_completed": "mcp_headers",
    "session_limits_exhausted.completed": "session_limits",
    "exit_plan_mode.completed": "exit_plan_mode",
    "auto_mode_switch.completed": "auto_mode_switch",
    "command.completed": "queued_command",
}
#: Requests of that shape that are answered and recorded elsewhere (permission records, tool calls).
ANSWERED_ELSEWHERE = frozenset({"permission.requested", "external_tool.requested"})


def is_host_request(kind: str, data: dict[str, Any] | None) -> bool:
    """Whether an event is the runtime waiting for its host: a known request event, or one of that shape."""
    if kind in REQUEST_EVENTS:
        return True
    if kind in ANSWERED_ELSEWHERE or not isinstance(data, dict) or not data.get("requestId"):
        return False
    return kind.endswith((".requested", "_required"))


def sampling_text(request: dict[str, Any]) -> str | None:
    """The text of the last message of an MCP sampling request (its content may be one item or a list)."""
    messages = list_or_empty(request.get("messages"))
    if not messages or not isinstance(messages[-1], dict):
        return None
    content = messages[-1].get("content")
    parts = content if isinstance(content, list) else [content]
    texts = [str(part["text"]) for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str)]
    return "".join(texts) if texts else None


def limit_details(data: dict[str, Any]) -> dict[str, Any]:
    """What a session-limit request says: the AI credits used and the limit (``None`` when not said)."""
    return {
        "used_ai_credits": number_or_none(data.get("usedAiCredits")),
        "max_ai_credits": number_or_none(data.get("maxAiCredits")),
    }


def _details(kind: HostRequestKind, data: dict[str, Any]) -> dict[str, Any] | None:
    if kind in ("mcp_oauth", "mcp_headers"):
        # Only what names the server and why: the OAuth request's HTTP response (headers, cookies) stays out.
        return {"server_url": text_or_none(data.get("serverUrl")), "reason": text_or_none(data.get("reason"))}
    if kind == "session_limits":
        return limit_details(data)
    if kind == "exit_plan_mode":
        return {
            "actions": [str(a) for a in list_or_empty(data.get("actions"))],
            "recommended_action": text_or_none(data.get("recommendedAction")),
        }
    if kind == "auto_mode_switch":
        return {
            "error_code": text_or_none(data.get("errorCode")),
            "retry_after_s": number_or_none(data.get("retryAfterSeconds")),
        }
    return None


def _opened(kind: str, data: dict[str, Any], event: dict[str, Any]) -> HostRequest | None:
    if not is_host_request(kind, data):
        return None
    common: dict[str, Any] = {
        "request_id": text_or_none(data.get("requestId")),
        "agent_id": agent_scope(event) or None,
        "tool_call_id": text_or_none(data.get("toolCallId")),
        "requested_at": text_or_none(event.get("timestamp")),
        "completed": False,
        "event_type": kind,
    }
    recorded = REQUEST_EVENTS.get(kind, "unknown")
    if recorded == "question":
        choices = data.get("choices")
        return HostRequest(
            kind="question",
            asked_by="agent",
            message=text_or_none(data.get("question")),
            choices=[str(c) for c in choices] if isinstance(choices, list) else None,
            allow_freeform=data.get("allowFreeform") if isinstance(data.get("allowFreeform"), bool) else None,
            **common,
        )
    if recorded == "elicitation":
        url = text_or_none(data.get("url"))
        mode: Literal["form", "url"] = (
            "url" if data.get("mode") == "url" or (url and data.get("mode") != "form") else "form"
        )
        return HostRequest(
            kind="elicitation",
            asked_by=text_or_none(data.get("elicitationSource")),
            mode=mode,
            message=text_or_none(data.get("message")),
            requested_schema=dict_or_empty(data.get("requestedSchema")) or None,
            url=url,
            **common,
        )
    if recorded == "sampling":
        request = dict_or_empty(data.get("request"))
        return HostRequest(
            kind="sampling",
            asked_by=text_or_none(data.get("serverName")),
            message=sampling_text(request),
            sampling_request=request or None,
            **common,
        )
    message = text_or_none(data.get("summary")) or text_or_none(data.get("command"))
    return HostRequest(
        kind=recorded,
        asked_by=text_or_none(data.get("serverName")) or ("runtime" if recorded != "exit_plan_mode" else "agent"),
        message=message,
        details=_details(recorded, data),
        **common,
    )


def _completed(record: HostRequest, data: dict[str, Any], event: dict[str, Any]) -> None:
    record.completed = True
    record.answered_at = text_or_none(event.get("timestamp"))
    if record.kind == "question":
        record.answer = text_or_none(data.get("answer"))
        record.action = "accept" if record.answer is not None else None
    elif record.kind == "elicitation":
        record.action = _reply_action(data.get("action"))
        content = data.get("content")
        record.answer = dict(content) if isinstance(content, dict) else None
    elif record.kind == "exit_plan_mode" and isinstance(data.get("approved"), bool):
        record.action = "accept" if data["approved"] else "decline"
        record.answer = text_or_none(data.get("feedback"))
    else:
        response = data.get("response")
        said = dict_or_empty(response).get("action") if isinstance(response, dict) else response
        record.outcome = text_or_none(data.get("outcome")) or text_or_none(said)


def _reply_action(value: object) -> ReplyAction | None:
    """``value`` as one of the actions a reply can take, or ``None`` when it names none."""
    return next((action for action in _ACTIONS if action == value), None)


def _apply_answer(record: HostRequest, answer: HostAnswer) -> None:
    record.answered_by, record.problem = answer.answered_by, answer.problem
    # The runner knows a declined question (its text reaches the agent as an answer) and every
    # sampling outcome; for an elicitation or a plan the completion event already said it.
    action = _reply_action(answer.action)
    if action is not None and (record.kind not in ("elicitation", "exit_plan_mode") or record.action is None):
        record.action = action
    if record.kind == "sampling":
        record.answer, record.response = answer.answer, answer.response
    elif record.answer is None and answer.answer is not None:
        record.answer = answer.answer


def _match(records: list[HostRequest], answers: Iterable[HostAnswer]) -> None:
    used: set[int] = set()
    for answer in answers:
        for index, record in enumerate(records):
            if index in used or record.kind != answer.kind:
                continue
            same = (
                record.request_id == answer.request_id
                if answer.request_id is not None
                else record.answered_by is None and record.message == answer.message
            )
            if same:
                used.add(index)
                _apply_answer(record, answer)
                break


def host_requests_of(events: Iterable[dict[str, Any]], answers: Iterable[HostAnswer] = ()) -> list[HostRequest]:
    """Every request to the host in the order asked, with its answer and who gave it."""
    records: list[HostRequest] = []
    by_id: dict[str, HostRequest] = {}
    for event in events:
        kind, data = event_type(event), event_data(event)
        if data is None:
            continue
        if kind in COMPLETION_EVENTS:
            found = by_id.get(text_or_none(data.get("requestId")) or "")
            if found is not None:
                _completed(found, data, event)
            continue
        record = _opened(kind, data, event)
        if record is not None:
            records.append(record)
            if record.request_id is not None:
                by_id.setdefault(record.request_id, record)
    _match(records, answers)
    return records


__all__ = [
    "ANSWERED_ELSEWHERE",
    "COMPLETION_EVENTS",
    "REQUEST_EVENTS",
    "host_requests_of",
    "is_host_request",
    "limit_details",
    "sampling_text",
]
