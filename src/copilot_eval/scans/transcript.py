"""One case's transcript as scanners read it: events in order, each marked as written by the agent or read by it.

A scanner must judge what the agent *authored* (its answers, the calls it made and their
arguments), never text it was only shown (the user's prompts, tool results, resources): a tool
result that quotes an injection is not the agent obeying it. ``Event.authored`` is that line, drawn
here once for every scanner.

Built from any ``PlayedEvidence``: a ``CopilotResult`` gives prompts, answers, calls and their
results in the order the runtime reported them; a Copilot Studio ``TargetResult`` its prompts,
the plan steps it reported and its answers; other evidence what the protocol shows (answers and
steps). A case with no evidence file (an Evaluate-tab export) is its recorded answer alone.
Subagents' own transcripts are not read: their steps appear as one call of the agent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from copilot_eval.evidence.protocol import PlayedEvidence
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.targets.evidence import TargetResult

EventKind = Literal["prompt", "answer", "call", "result"]
AUTHORED_KINDS: frozenset[str] = frozenset({"answer", "call"})
"""The kinds of event the agent wrote; ``prompt`` and ``result`` it only read."""


@dataclass(frozen=True)
class Event:
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
class CaseTranscript:
    """What scanners see of one case: its key, its transcript, its answer, and what the workspace declares."""

    key: str
    events: tuple[Event, ...]
    turn: int | None = None
    status: str | None = None
    stop_reason: str | None = None
    offered_tools: tuple[str, ...] = ()
    protected_paths: tuple[str, ...] = ()
    answer_keys: tuple[str, ...] = ()
    # False: neither evidence nor a recorded answer (a platform's run with no text): unknown, not empty
    answers_known: bool = True

    def of_turn(self, turn: int | None = None) -> list[Event]:
        """The events of one user turn (the case's own by default; every event when the turn is unknown)."""
        wanted = self.turn if turn is None else turn
        return [e for e in self.events if wanted is None or e.turn is None or e.turn == wanted]

    def authored(self, *, turn: int | None = None) -> list[Event]:
        """The events of the case's turn the agent wrote."""
        return [e for e in self.of_turn(turn) if e.authored]

    def read(self) -> list[Event]:
        """Every event up to the case's turn the agent only read (prompts, tool results)."""
        return [e for e in self.events if not e.authored and (self.turn is None or (e.turn or 0) <= self.turn)]

    @property
    def answer(self) -> Event | None:
        """The last answer of the case's turn (``None`` when the agent wrote none)."""
        answers = [e for e in self.of_turn() if e.kind == "answer" and e.text.strip()]
        return answers[-1] if answers else None

    @property
    def prompts(self) -> list[str]:
        """The user's prompts up to the case's turn."""
        return [e.text for e in self.events if e.kind == "prompt" and (self.turn is None or (e.turn or 0) <= self.turn)]


def _call_text(name: str | None, arguments: Mapping[str, Any] | None) -> str:
    shown = json.dumps(arguments, ensure_ascii=False, sort_keys=True, default=str) if arguments is not None else ""
    return f"{name or '?'}({shown})"


def _tool_events(call: ToolCall, turn: int | None, number: int) -> list[Event]:
    arguments = call.arguments
    events = [
        Event("call", _call_text(call.name, arguments), turn, call.name, arguments, number, call.success),
    ]
    output = call.result if call.result is not None else call.error
    # An embedded resource's text is read too; the text items are already the runtime's ``result``.
    items = [item.text for item in call.content_items if item.text and not (output and item.text in output)]
    text = "\n".join(part for part in [output, *items] if part)
    if text:
        events.append(Event("result", text, turn, call.name, arguments, number, call.success))
    return events


def _from_copilot(result: CopilotResult) -> list[Event]:
    """Prompts, answers, calls and results in the order the runtime reported them."""
    by_id = {call.call_id: call for call in result.all_tool_calls if call.call_id}
    placed: set[str] = set()
    events: list[Event] = []
    turn = 0
    number = 0
    for message in result.turns:
        if message.role == "user":
            turn += 1
            events.append(Event("prompt", message.content, turn))
            continue
        if message.content.strip():
            events.append(Event("answer", message.content, turn or None))
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
    return events


def _from_target(result: TargetResult) -> list[Event]:
    """A Copilot Studio conversation: each prompt, the plan steps reported for it, its answer."""
    events: list[Event] = []
    number = 0
    for turn, played in enumerate(result.turns, start=1):
        events.append(Event("prompt", played.prompt, turn))
        for step in played.plan_steps:
            number += 1
            events.append(
                Event(
                    "call",
                    _call_text(step.name, step.arguments),
                    turn,
                    step.name,
                    step.arguments,
                    number,
                    step.succeeded,
                )
            )
        if played.answer:
            events.append(Event("answer", played.answer, turn))
    return events


def _from_protocol(evidence: PlayedEvidence) -> list[Event]:
    """What the protocol shows of any other evidence: the steps, then each answer."""
    events: list[Event] = []
    steps = evidence.observed_steps()
    for step in steps if isinstance(steps, list) else []:
        events.append(
            Event("call", _call_text(step.name, step.arguments), step.turn, step.name, step.arguments, step.position)
        )
    for turn, answer in enumerate(evidence.responses_per_prompt, start=1):
        if answer:
            events.append(Event("answer", answer, turn))
    return events


def events_of(evidence: PlayedEvidence | None, *, answer: str | None = None) -> list[Event]:
    """The transcript of ``evidence``; without evidence, the recorded ``answer`` as the only event."""
    if evidence is None:
        return [Event("answer", answer, None)] if answer else []
    if isinstance(evidence, CopilotResult):
        return _from_copilot(evidence)
    if isinstance(evidence, TargetResult):
        return _from_target(evidence)
    return _from_protocol(evidence)


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Sequence):
        return tuple(item for item in value if isinstance(item, str))
    return ()


def transcript_of(
    evidence: PlayedEvidence | None,
    *,
    key: str = "1",
    turn: int | None = None,
    status: str | None = None,
    answer: str | None = None,
) -> CaseTranscript:
    """One case's transcript from its evidence (``None``: only the recorded ``answer`` is known).

    The protected paths and answer keys come from the evidence's configuration
    (``protected_paths``, ``answer_keys``) when a workspace declared them; otherwise there are none.
    """
    offered: tuple[str, ...] = ()
    configuration: Mapping[str, Any] = {}
    stop_reason = evidence.stop_reason if evidence is not None else None
    if isinstance(evidence, CopilotResult):
        offered = tuple(sorted(evidence.tool_definitions or {}))
        configuration = evidence.configuration or {}
    workspace = configuration.get("workspace") if isinstance(configuration.get("workspace"), Mapping) else {}
    declared = {**configuration, **(workspace or {})}
    return CaseTranscript(
        key=key,
        events=tuple(events_of(evidence, answer=answer)),
        turn=turn,
        status=status,
        stop_reason=str(stop_reason) if stop_reason is not None else None,
        offered_tools=offered,
        protected_paths=_strings(declared.get("protected_paths")),
        answer_keys=_strings(declared.get("answer_keys")),
        answers_known=evidence is not None or answer is not None,
    )


__all__ = ["AUTHORED_KINDS", "CaseTranscript", "Event", "EventKind", "events_of", "transcript_of"]
