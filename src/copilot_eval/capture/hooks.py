"""Hook decisions: what the runner recorded of each hook handler, joined with the runtime's hook events.

The handlers are not given the tool call's id; the runtime's ``hook.start`` event of the same
invocation lists the calls it is about (runtime 1.0.102: ``input.toolCalls`` with ``id``, ``name``
and ``args``), so a decision about a tool is given the id of the first not yet claimed
``hook.start`` of its hook type that names that tool with those arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from copilot_eval.capture.events import dict_or_empty, event_data, event_type, list_or_empty, text_or_none
from copilot_eval.capture.run_facts import HookCall
from copilot_eval.evidence import HookDecision


def _tools_named(start: dict[str, Any]) -> list[tuple[str | None, str | None, Any]]:
    """(call id, tool name, arguments) of each call a ``hook.start`` event is about."""
    data = start.get("input")
    hook_input = dict_or_empty(data)
    calls = [dict_or_empty(c) for c in list_or_empty(hook_input.get("toolCalls"))]
    named = [(text_or_none(c.get("id")), text_or_none(c.get("name")), c.get("args")) for c in calls]
    if not named and "toolName" in hook_input:
        named = [
            (
                text_or_none(hook_input.get("toolCallId")),
                text_or_none(hook_input.get("toolName")),
                hook_input.get("toolArgs", hook_input.get("arguments")),
            )
        ]
    return named


def hook_decisions_of(events: Iterable[dict[str, Any]], calls: Sequence[HookCall]) -> list[HookDecision]:
    """Every handler's decision, in the order of the invocations, with the tool call id where it is known."""
    starts = [data for event in events if event_type(event) == "hook.start" and (data := event_data(event))]
    claimed: set[int] = set()
    decisions: list[HookDecision] = []
    for call in calls:
        call_id = None
        if call.tool_name is not None:
            for index, start in enumerate(starts):
                if index in claimed or start.get("hookType") != call.hook:
                    continue
                found = [
                    i for i, name, args in _tools_named(start) if name == call.tool_name and args == call.tool_args
                ]
                if found:
                    claimed.add(index)
                    call_id = found[0]
                    break
        decisions.extend(d.model_copy(update={"tool_call_id": call_id}) for d in call.decisions)
    return decisions
