"""One played conversation as a transcript: events in order, each marked as written by the agent or read by it.

A reader that judges the agent (the transcript scanners) must look at what the agent *authored*
(its answers, the calls it made and their arguments), never at text it was only shown (the user's
prompts, tool results, resources): a tool result that quotes an injection is not the agent obeying
it. ``TranscriptEvent.authored`` draws that line once. Each kind of evidence builds its own
transcript (``PlayedEvidence.transcript``), so no reader has to tell the kinds apart; this module
builds a Copilot runtime session's, from its messages and tool calls.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from copilot_eval.evidence.tool_call import ToolCall

if TYPE_CHECKING:
    from copilot_eval.evidence.result import CopilotResult

EventKind = Literal["prompt", "answer", "call", "result"]
AUTHORED_KINDS: frozenset[str] = frozenset({"answer", "call"})
"""The kinds of event the agent wrote; ``prompt`` and ``result`` it only read."""


@dataclass(frozen=True)
class TranscriptEvent:
    """One step of a transcript: a prompt, an answer, a call (with its arguments) or a call's result."""

    kind: EventKind
    text: str
    turn: int | None = None
    tool: str | None = None
    arguments: Mapping[str, Any] | None = None
    call_number: int | None = None
    succeeded: bool | None = None

    @property
    def authored(self) -> bool:
        """Whether the agent wrote this (an answer or a call), as opposed to reading it."""
        return self.kind in AUTHORED_KINDS

    @property
    def label(self) -> str:
        """Where in the turn: ``answer``, ``call 2 write_file``, ``result of call 2 write_file``, ``prompt``."""
        if self.kind in ("call", "result"):
            call = f"call {self.call_number or '?'} {self.tool or '?'}"
            return call if self.kind == "call" else f"result of {call}"
        return self.kind


@dataclass(frozen=True)
class Transcript:
    """A played conversation's events, the tools the agent was offered and the configuration it was given."""

    events: tuple[TranscriptEvent, ...] = ()
    offered_tools: tuple[str, ...] = ()
    configuration: Mapping[str, Any] = field(default_factory=dict)


def call_text(name: str | None, arguments: Mapping[str, Any] | None) -> str:
    """A call as one line of text: ``name({"arg": ...})``."""
    shown = json.dumps(arguments, ensure_ascii=False, sort_keys=True, default=str) if arguments is not None else ""
    return f"{name or '?'}({shown})"


def _tool_events(call: ToolCall, turn: int | None, number: int) -> list[TranscriptEvent]:
    arguments = call.arguments
    events = [
        TranscriptEvent("call", call_text(call.name, arguments), turn, call.name, arguments, number, call.success),
    ]
    output = call.result if call.result is not None else call.error
    # An embedded resource's text is read too; the text items are already the runtime's ``result``.
    items = [item.text for item in call.content_items if item.text and not (output and item.text in output)]
    text = "\n".join(part for part in [output, *items] if part)
    if text:
        events.append(TranscriptEvent("result", text, turn, call.name, arguments, number, call.success))
    return events


def copilot_transcript(result: CopilotResult) -> Transcript:
    """Prompts, answers, calls and results in the order the runtime reported them.

    Subagents' own transcripts are not read: their steps appear as one call of the agent.
    """
    by_id = {call.call_id: call for call in result.all_tool_calls if call.call_id}
    placed: set[str] = set()
    events: list[TranscriptEvent] = []
    turn = 0
    number = 0
    for message in result.turns:
        if message.role == "user":
            turn += 1
            events.append(TranscriptEvent("prompt", message.content, turn))
            continue
        if message.content.strip():
            events.append(TranscriptEvent("answer", message.content, turn or None))
        for call_id in message.tool_call_ids:
            call = by_id.get(call_id)
            if call is None or call_id in placed:
                continue
            placed.add(call_id)
            number += 1
            events += _tool_events(call, turn or None, number)
    for call in result.all_tool_calls:  # calls no message named (a capture gap): kept, at the end of the last turn
        if call.parent_call_id is None and call.call_id not in placed:
            number += 1
            events += _tool_events(call, turn or None, number)
    return Transcript(
        events=tuple(events),
        offered_tools=tuple(sorted(result.tool_definitions or {})),
        configuration=result.configuration or {},
    )


__all__ = ["AUTHORED_KINDS", "EventKind", "Transcript", "TranscriptEvent", "call_text", "copilot_transcript"]
