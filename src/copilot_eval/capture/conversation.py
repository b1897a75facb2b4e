"""Turns, permissions, model and session errors of one agent scope."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from copilot_eval.capture.events import event_data, event_id, event_type, int_or_none, list_or_empty, text_or_none
from copilot_eval.capture.session_error import session_error_message
from copilot_eval.evidence import CaptureError, PermissionRecord, ToolCall, Turn, UsageEntry


def turns_of(events: Iterable[dict[str, Any]], errors: list[CaptureError]) -> list[Turn]:
    """User prompts and assistant messages in order (the prompt as typed, not as transformed)."""
    turns: list[Turn] = []
    for event in events:
        kind = event_type(event)
        if kind not in ("user.message", "assistant.message"):
            continue
        data = event_data(event)
        content = text_or_none(data.get("content")) if data else None
        if data is None or content is None:
            errors.append(
                CaptureError(
                    kind="unparsed_event", event_id=event_id(event), message=f"{kind} without readable text content"
                )
            )
            continue
        requests = list_or_empty(data.get("toolRequests")) if kind == "assistant.message" else []
        ids = [r["toolCallId"] for r in requests if isinstance(r, dict) and isinstance(r.get("toolCallId"), str)]
        turns.append(
            Turn(
                role="user" if kind == "user.message" else "assistant",
                content=content,
                tool_call_ids=ids,
                turn_id=text_or_none(data.get("turnId")),
                model=text_or_none(data.get("model")),
                message_id=text_or_none(data.get("messageId")),
            )
        )
    return turns


def permissions_of(
    events: Iterable[dict[str, Any]], calls: list[ToolCall], errors: list[CaptureError]
) -> list[PermissionRecord]:
    """One record per permission request, with the decision when one was seen."""
    names = {call.call_id: call.name for call in calls}
    records: dict[str, PermissionRecord] = {}
    anonymous: list[PermissionRecord] = []
    for event in events:
        kind, data = event_type(event), event_data(event)
        if kind == "permission.requested":
            request = data.get("permissionRequest") if data else None
            if data is None or not isinstance(request, dict):
                errors.append(
                    CaptureError(
                        kind="unparsed_event",
                        event_id=event_id(event),
                        message="permission.requested without a permissionRequest object",
                    )
                )
                continue
            call_id = text_or_none(request.get("toolCallId")) or text_or_none(data.get("toolCallId"))
            record = PermissionRecord(
                request_id=text_or_none(data.get("requestId")),
                kind=text_or_none(request.get("kind")),
                tool_name=text_or_none(request.get("toolName")) or names.get(call_id),
                tool_call_id=call_id,
                details=request,
            )
            if record.request_id is None:
                anonymous.append(record)
            else:
                records.setdefault(record.request_id, record)
        elif kind == "permission.completed" and data is not None:
            requested = records.get(text_or_none(data.get("requestId")) or "")
            result = data.get("result")
            if requested is not None and isinstance(result, dict):
                requested.decision = text_or_none(result.get("kind"))
                requested.feedback = text_or_none(result.get("feedback"))
    return [*records.values(), *anonymous]


@dataclass
class SessionFacts:
    """Session-level facts read from the root events."""

    # Optional fields alike in shape to FinishOptions, DirectLineTarget, StudioOutcome, run settings: other facts.
    session_id: str | None = None
    runtime_version: str | None = None
    working_directory: str | None = None
    selected_model: str | None = None
    idle_seen: bool = False
    aborted: bool = False
    error: str | None = None
    error_status: int | None = None  # statusCode of the last session.error, when it had one
    error_type: str | None = None  # errorType of the last session.error ("rate_limit", "query", ...)
    shutdown: dict[str, Any] | None = None


def session_facts(events: Iterable[dict[str, Any]], errors: list[CaptureError]) -> SessionFacts:
    """Identity, version, model choice, idle, errors and shutdown metrics of one scope."""
    facts = SessionFacts()
    messages: list[str] = []
    for event in events:
        kind, data = event_type(event), event_data(event)
        if kind == "session.start" and data is not None:
            facts.session_id = text_or_none(data.get("sessionId"))
            facts.runtime_version = text_or_none(data.get("copilotVersion"))
            facts.selected_model = text_or_none(data.get("selectedModel"))
            context = data.get("context")
            facts.working_directory = text_or_none(context.get("cwd")) if isinstance(context, dict) else None
        elif kind == "session.model_change" and data is not None:
            facts.selected_model = text_or_none(data.get("newModel")) or facts.selected_model
        elif (kind == "session.tools_updated" and data is not None and facts.selected_model is None) or (
            kind == "subagent.configured" and data is not None and facts.selected_model is None
        ):
            facts.selected_model = text_or_none(data.get("model"))
        elif kind == "session.idle":
            facts.idle_seen = True
            facts.aborted = facts.aborted or bool(data and data.get("aborted") is True)
        elif kind == "session.error":
            if data is None:
                errors.append(
                    CaptureError(
                        kind="unparsed_event",
                        event_id=event_id(event),
                        message="session.error without a payload object",
                    )
                )
            messages.append(session_error_message(data))
            if data is not None:
                facts.error_status = int_or_none(data.get("statusCode"))
                facts.error_type = text_or_none(data.get("errorType"))
        elif kind == "session.shutdown" and data is not None:
            facts.shutdown = data
    if messages:
        facts.error = "; ".join(dict.fromkeys(messages))
    if facts.aborted:
        errors.append(CaptureError(kind="cancelled", message="the session was aborted before it went idle"))
    return facts


def model_used(usage: list[UsageEntry], selected: str | None) -> str | None:
    """The model that actually answered (usage reports it), else the session's selected model."""
    for entry in usage:
        if entry.model:
            return entry.model
    return selected
