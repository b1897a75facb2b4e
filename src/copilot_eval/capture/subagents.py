"""Subagent invocations: runtime subagents (the ``task`` tool) and custom-agent dispatches.

A runtime subagent's own events are in the stream (tagged with its ``agentId``), so its
invocation carries a child ``CopilotResult`` built from exactly those events. A custom agent
selected for the root session (``subagent.selected`` without ``agentId``, measured with runtime
1.0.102 when a session is created with ``agent=...``; the runtime emitted it twice with identical
payloads) runs as the root itself: no separate trace exists, so its ``result`` stays ``None``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copilot_eval.capture.events import event_data, event_id, event_type, int_or_none, number_or_none, text_or_none
from copilot_eval.capture.scopes import Scope
from copilot_eval.evidence import CaptureError, CopilotResult, SubagentInvocation

BuildChild = Callable[[str, "SubagentInvocation"], CopilotResult]


def _duration(data: dict[str, Any]) -> float | None:
    return number_or_none(data.get("durationMs")) if "durationMs" in data else number_or_none(data.get("duration"))


def _apply_lifecycle(invocation: SubagentInvocation, kind: str, data: dict[str, Any]) -> None:
    details = invocation.details if invocation.details is not None else {}
    invocation.details = details
    invocation.parent_call_id = invocation.parent_call_id or text_or_none(data.get("toolCallId"))
    invocation.name = invocation.name or text_or_none(data.get("agentName"))
    for key, label in (
        ("agentDisplayName", "display_name"),
        ("agentDescription", "description"),
        ("agentType", "agent_type"),
        ("model", "model"),
        ("reasoningEffort", "reasoning_effort"),
    ):
        if key in data and data[key] is not None:
            details[label] = data[key]
    if kind == "subagent.started":
        invocation.status = invocation.status or "running"
    elif kind in ("subagent.completed", "subagent.failed"):
        cancelled = data.get("cancelled") is True
        invocation.status = "cancelled" if cancelled else ("completed" if kind == "subagent.completed" else "failed")
        invocation.duration_ms = _duration(data)
        invocation.total_tokens = int_or_none(data.get("totalTokens"))
        invocation.total_tool_calls = int_or_none(data.get("totalToolCalls"))
        if kind == "subagent.failed":
            invocation.error = text_or_none(data.get("error"))


def runtime_subagents(
    scope: Scope, scopes: dict[str, Scope], build_child: BuildChild, errors: list[CaptureError]
) -> list[SubagentInvocation]:
    """Invocations of the children this scope started, each with its own child result."""
    invocations: list[SubagentInvocation] = []
    for child_key in scope.children:
        invocation = SubagentInvocation(invocation_id=child_key, kind="subagent")
        lifecycle = [e for e in scope.lifecycle if (e.get("agentId") or "") == child_key]
        for event in lifecycle:
            data = event_data(event)
            if data is None:
                errors.append(
                    CaptureError(
                        kind="unparsed_event",
                        event_id=event_id(event),
                        message=f"{event_type(event)} without a payload object",
                    )
                )
                continue
            _apply_lifecycle(invocation, event_type(event), data)
        if not lifecycle:
            errors.append(
                CaptureError(
                    kind="uncorrelated_event",
                    message=f"events tagged with agent {child_key} but no subagent.started for it",
                )
            )
        if invocation.status == "cancelled":
            errors.append(
                CaptureError(
                    kind="cancelled",
                    call_id=invocation.parent_call_id,
                    message=f"subagent {invocation.name or child_key} was cancelled",
                )
            )
        invocation.result = build_child(child_key, invocation) if scopes[child_key].events else None
        invocations.append(invocation)
    return invocations


def untagged_lifecycle(events: list[dict[str, Any]]) -> list[SubagentInvocation]:
    """Lifecycle events that arrived without an ``agentId``: recorded, but with no child trace."""
    by_call: dict[str, SubagentInvocation] = {}
    for event in events:
        kind, data = event_type(event), event_data(event)
        if kind not in ("subagent.started", "subagent.completed", "subagent.failed") or data is None:
            continue
        call_id = text_or_none(data.get("toolCallId")) or f"event:{event_id(event)}"
        invocation = by_call.setdefault(call_id, SubagentInvocation(kind="subagent"))
        _apply_lifecycle(invocation, kind, data)
    return list(by_call.values())


def custom_agent_dispatches(events: list[dict[str, Any]]) -> list[SubagentInvocation]:
    """One invocation per distinct ``subagent.selected`` payload of this scope (repeats collapse)."""
    seen: list[dict[str, Any]] = []
    invocations: list[SubagentInvocation] = []
    for event in events:
        data = event_data(event)
        if event_type(event) != "subagent.selected" or data is None or data in seen:
            continue
        seen.append(data)
        details = {"display_name": data.get("agentDisplayName"), "tools": data.get("tools")}
        invocations.append(
            SubagentInvocation(
                invocation_id=event_id(event),
                name=text_or_none(data.get("agentName")),
                kind="custom_agent",
                status="selected",
                details=details,
            )
        )
    return invocations
