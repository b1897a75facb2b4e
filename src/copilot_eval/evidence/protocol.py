"""The evidence of one played conversation as its readers see it, whichever kind of target played it.

Graders, limitation detection, the run files and the history read a played conversation through
``PlayedEvidence`` alone: the answer to each prompt, the steps the agent took (the Copilot
runtime's tool calls and subagents; the plan steps a Copilot Studio agent reports), the sources
it cited, its usage, its timing and its error. ``CopilotResult`` (here) and the Copilot Studio
``TargetResult`` (``targets.evidence``) implement it, and nothing else tells the two apart.
What a kind of target cannot show stays ``None`` (tokens of a Copilot Studio agent) or says why
it is not visible (steps a platform did not report), never a made-up zero or empty list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from copilot_eval.evidence.phase_times import PhaseTimes
from copilot_eval.evidence.played_on import PlayedOn
from copilot_eval.evidence.rate_limit import RateLimit
from copilot_eval.evidence.runtime_trace import RuntimeTrace
from copilot_eval.evidence.trajectory.calls import ObservedCall
from copilot_eval.evidence.transcript import Transcript


class CitedSource(Protocol):
    """A source an answer cites: where it is and what it is called (either may be unknown)."""

    @property
    def url(self) -> str | None:
        """The address of the source, ``None`` when the citation gave none."""
        ...

    @property
    def title(self) -> str | None:
        """The source's title, ``None`` when the citation gave none."""
        ...


@dataclass(frozen=True)
class KnowledgeSeen:
    """The knowledge one answer drew on, as the evidence shows it: how it was seen, and the text of it kept.

    ``sources`` names how (``citations``, ``knowledge search``); ``passages`` are the text the record
    holds (a citation's title, address and abstract; what a search found), possibly none even when a
    search is seen (a trace may list what was searched and not what was found).
    """

    sources: tuple[str, ...] = ()
    passages: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.sources)


@runtime_checkable
class PlayedEvidence(Protocol):
    """What graders, limitation detection, reports and the history read from one played conversation."""

    # Settable: a distributed executor names the node and process that played the conversation.
    played_on: PlayedOn | None

    # The members below are alike in shape (property, docstring, ...): a protocol states each one on its own.
    @property
    def success(self) -> bool:
        """Whether every prompt was played and answered by the platform (not whether the answers are right)."""
        ...

    @property
    def error(self) -> str | None:
        """Why the conversation did not complete, ``None`` when it did."""
        ...

    @property
    def stop_reason(self) -> str | None:
        """How the conversation ended (``completed``, ``timeout``, ``execution_error`` ...)."""
        ...

    @property
    def duration_ms(self) -> float | None:
        """How long the conversation took, ``None`` when not measured."""
        ...

    @property
    def rate_limit(self) -> RateLimit | None:
        """The model's rate limit that ended the conversation, for a run to play it again; ``None`` otherwise."""
        ...

    @property
    def responses_per_prompt(self) -> list[str | None]:
        """Per prompt played, its answer (``None`` when the turn got none); unplayed prompts are absent."""
        ...

    @property
    def final_response(self) -> str | None:
        """The last answer, ``None`` when there was none."""
        ...

    @property
    def citations(self) -> Sequence[CitedSource]:
        """The sources the answers cite, in order (empty for a target that cites none)."""
        ...

    def knowledge_seen(self, *, turn: int) -> KnowledgeSeen:
        """The knowledge the answer to user turn ``turn`` (1-based) drew on; empty when the evidence shows none."""
        ...

    @property
    def total_input_tokens(self) -> int | None:
        """Input tokens of the whole conversation, ``None`` when any count is unknown."""
        ...

    @property
    def total_output_tokens(self) -> int | None:
        """Output tokens of the whole conversation, ``None`` when any count is unknown."""
        ...

    @property
    def total_premium_requests(self) -> float | None:
        """Premium requests the conversation used, ``None`` when unknown."""
        ...

    @property
    def total_ai_credits(self) -> float | None:
        """AI credits the conversation used, ``None`` when unknown."""
        ...

    @property
    def runtime_trace(self) -> RuntimeTrace | None:
        """The Copilot runtime's own OpenTelemetry spans of the session; ``None`` when there are none to read."""
        ...

    @property
    def phase_times(self) -> PhaseTimes | None:
        """Where the session's time went, read from ``runtime_trace``; ``None`` without it."""
        ...

    def observed_steps(self, *, turn: int | None = None, subagent_calls: bool = True) -> list[ObservedCall] | str:
        """The agent's steps (of user turn ``turn``, 1-based, or of all turns), or why they are not visible."""
        ...

    def transcript(self) -> Transcript:
        """The conversation in order, each event marked as written by the agent or only read by it."""
        ...

    def save(self, path: str | Path) -> Path:
        """Write the evidence as JSON, atomically."""
        ...


__all__ = ["CitedSource", "KnowledgeSeen", "PlayedEvidence"]
