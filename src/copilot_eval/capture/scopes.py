"""Splitting one session's events into agent scopes: the root and each runtime subagent.

Measured with runtime 1.0.102 (the ``task`` tool): the parent emits ``tool.execution_start`` for
the ``task`` call; then ``subagent.started`` (``toolCallId`` = that call), ``subagent.configured``,
``subagent.selected`` and all of the child's own events arrive with the event-level ``agentId``
of the child, and the child's assistant events also carry ``parentToolCallId`` in their payload;
``subagent.completed`` (or ``subagent.failed``) is tagged with the child too; the ``task`` call's
completion and everything after it are untagged root events again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from copilot_eval.capture.events import ROOT, agent_scope, event_data, event_type, text_or_none

LIFECYCLE = ("subagent.started", "subagent.configured", "subagent.completed", "subagent.failed")
"""Events that describe a child's invocation to its parent rather than the child's own work."""


@dataclass
class Scope:
    """One agent's own events, and the lifecycle events of the children it invoked."""

    key: str
    events: list[dict[str, Any]] = field(default_factory=list)
    lifecycle: list[dict[str, Any]] = field(default_factory=list)
    children: list[str] = field(default_factory=list)


def split_scopes(events: list[dict[str, Any]]) -> dict[str, Scope]:
    """Scopes keyed by agent id (``ROOT`` for the root), each knowing its children in order."""
    owner_of_call: dict[str, str] = {}
    for event in events:
        data = event_data(event)
        if event_type(event) == "tool.execution_start" and data is not None:
            call_id = text_or_none(data.get("toolCallId"))
            if call_id is not None:
                owner_of_call.setdefault(call_id, agent_scope(event))

    scopes: dict[str, Scope] = {ROOT: Scope(key=ROOT)}
    parent_of: dict[str, str] = {}

    def scope(key: str) -> Scope:
        return scopes.setdefault(key, Scope(key=key))

    for event in events:
        key = agent_scope(event)
        if key == ROOT or event_type(event) not in LIFECYCLE:
            scope(key).events.append(event)
            continue
        # The child's lifecycle belongs to whoever made the call that started it.
        call_id = text_or_none((event_data(event) or {}).get("toolCallId")) or ""
        parent = parent_of.setdefault(key, owner_of_call.get(call_id, ROOT))
        scope(key)
        scope(parent).lifecycle.append(event)
        if key not in scope(parent).children:
            scope(parent).children.append(key)
    # Tagged events with no lifecycle at all: keep them as a child of the root (flagged later).
    for key in list(scopes):
        if key != ROOT and key not in parent_of:
            scopes[ROOT].children.append(key)
    return scopes
