"""One case's transcript as scanners read it: events in order, each marked as written by the agent or read by it.

A scanner must judge what the agent *authored* (its answers, the calls it made and their
arguments), never text it was only shown (the user's prompts, tool results, resources): a tool
result that quotes an injection is not the agent obeying it. ``Event.authored`` (the evidence
layer's ``TranscriptEvent``) is that line.

Built from any ``PlayedEvidence`` through its own ``transcript()``: a ``CopilotResult`` gives
prompts, answers, calls and their results in the order the runtime reported them; a Copilot Studio
``TargetResult`` its prompts, the plan steps it reported and its answers. A case with no evidence
file (an Evaluate-tab export) is its recorded answer alone. Subagents' own transcripts are not
read: their steps appear as one call of the agent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from copilot_eval.evidence.protocol import PlayedEvidence
from copilot_eval.evidence.transcript import AUTHORED_KINDS, EventKind, Transcript, TranscriptEvent

# The transcript's event is the evidence layer's: each kind of evidence builds its own transcript.
Event = TranscriptEvent


# Alike in shape only to gate.sides.CaseSide, triggers.trigger_set.TriggerSet and grading's DiffGrader
# (frozen fields with defaults): each holds other facts.
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
    # The tools the play was set to stop at (``stop_at_tools``: a trigger play ends at its choice)
    stop_at_tools: tuple[str, ...] = ()

    @property
    def stopped_at_choice(self) -> bool:
        """Whether the play ended, as it was set to, at a call of one of its ``stop_at_tools`` (no answer expected)."""
        if not self.stop_at_tools:
            return False
        names = {entry.split(":", 1)[0] for entry in self.stop_at_tools}
        return any(e.kind == "call" and e.tool in names for e in self.of_turn())

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


def events_of(evidence: PlayedEvidence | None, *, answer: str | None = None) -> list[Event]:
    """The transcript of ``evidence``; without evidence, the recorded ``answer`` as the only event."""
    if evidence is None:
        return [Event("answer", answer, None)] if answer else []
    return list(evidence.transcript().events)


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
    played = evidence.transcript() if evidence is not None else Transcript()
    offered, configuration = played.offered_tools, played.configuration
    stop_reason = evidence.stop_reason if evidence is not None else None
    workspace = configuration.get("workspace") if isinstance(configuration.get("workspace"), Mapping) else {}
    declared = {**configuration, **(workspace or {})}
    return CaseTranscript(
        key=key,
        events=played.events if evidence is not None else tuple(events_of(None, answer=answer)),
        turn=turn,
        status=status,
        stop_reason=str(stop_reason) if stop_reason is not None else None,
        offered_tools=offered,
        protected_paths=_strings(declared.get("protected_paths")),
        answer_keys=_strings(declared.get("answer_keys")),
        answers_known=evidence is not None or answer is not None,
        stop_at_tools=_strings(configuration.get("stop_at_tools")),
    )


__all__ = ["AUTHORED_KINDS", "CaseTranscript", "Event", "EventKind", "events_of", "transcript_of"]
