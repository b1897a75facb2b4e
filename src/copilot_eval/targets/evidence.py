"""Evidence of a conversation with a Copilot Studio agent: one record per turn, raw activities kept.

Like ``CopilotResult`` it describes what happened and never judges it: ``success`` says every
turn got an answer from the platform, not that the answers are right. A fallback message is an
answer (graders decide it is wrong); an HTTP error, a platform error code or a timeout is an
execution error and leaves the turn's ``answer`` at ``None``. No token or secret is ever stored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.bounded_json import load_json_file
from copilot_eval.evidence.played_on import PlayedOn
from copilot_eval.evidence.protocol import KnowledgeSeen, PlayedEvidence
from copilot_eval.evidence.rate_limit import RateLimit
from copilot_eval.evidence.trajectory.calls import ObservedCall, renumbered
from copilot_eval.evidence.transcript import Transcript, TranscriptEvent, call_text
from copilot_eval.targets.plan_steps import PlanStep, plan_steps, reports_steps, search_results

SCHEMA_VERSION = 1
#: Why a conversation's steps cannot be graded: invisible is not absent.
STEPS_NOT_VISIBLE = (
    "the agent's steps are not visible for this target: the platform reported no orchestration steps "
    "(plan steps, topics, knowledge searches) in this conversation's activities"
)
TurnEnd = Literal["quiet", "end_of_conversation", "end_event", "stream_closed", "timeout", "error"]


class HttpExchange(BaseModel):
    """One HTTP request the client made: method, URL without credentials, status, timing, error code."""

    method: str
    url: str
    status: int | None = None
    duration_ms: float | None = None
    error_code: str | None = None
    error_message: str | None = None


class Citation(BaseModel):
    """One source the answer cites, merged by ``position`` from markdown links and Claim entities."""

    position: str
    url: str | None = None
    title: str | None = None
    abstract: str | None = None
    sources: list[Literal["markdown", "entity"]] = Field(default_factory=list)


AttachmentKind = Literal["adaptive_card", "consent_card", "signin_card", "hero_card", "other"]


class Attachment(BaseModel):
    """A card or file attached to a reply; ``kind`` sorts the cards graders care about."""

    content_type: str
    kind: AttachmentKind
    name: str | None = None
    content: Any = None


def _cited_text(citation: Citation) -> str:
    """``title (url): abstract``, with what the citation has of these."""
    head = " ".join(part for part in (citation.title, f"({citation.url})" if citation.url else None) if part)
    return f"{head}: {citation.abstract}" if head and citation.abstract else (citation.abstract or head)


class TargetTurn(BaseModel):
    """One user message and everything the agent sent back for it."""

    # Optional fields alike in shape to HookDecision's, UsageEntry's and Finding's: a Copilot Studio turn's facts.
    prompt: str
    sent_activity_id: str | None = None
    activities: list[dict[str, Any]] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list)
    answer: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    attachments: list[Attachment] = Field(default_factory=list)
    suggested_actions: list[dict[str, Any]] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list)
    typing_seen: bool | None = None
    streaming_seen: bool | None = None
    latency_ms: float | None = None
    duration_ms: float | None = None
    ended_by: TurnEnd | None = None
    error: str | None = None
    error_code: str | None = None
    http_status: int | None = None

    # Alike in shape to ToolCall's and gate/sides.py's one-expression properties: each its own fact.
    @property
    def steps_reported(self) -> bool:
        """Whether the platform reported any orchestration step in this turn's activities."""
        return reports_steps(self.activities)

    @property
    def plan_steps(self) -> list[PlanStep]:
        """The topics, actions and knowledge searches this turn's activities report, in order."""
        return plan_steps(self.activities)

    @property
    def knowledge_seen(self) -> KnowledgeSeen:
        """What this turn's answer drew on: its citations, and what its knowledge searches found (text kept)."""
        sources: list[str] = []
        passages: list[str] = []
        if self.citations:
            sources.append("citations")
            passages += [text for text in (_cited_text(c) for c in self.citations) if text]
        found = search_results(self.activities)
        if found or any(step.kind == "knowledge" for step in self.plan_steps):
            sources.append("knowledge search")
            passages += [p for p in found if p not in passages]
        return KnowledgeSeen(tuple(sources), tuple(passages))


class TargetResult(BaseModel):
    """A whole conversation with a Copilot Studio agent over one transport (a ``PlayedEvidence``).

    The platform reports no token counts or premium requests to a client: they are ``None``.
    """

    schema_version: int = SCHEMA_VERSION
    kind: Literal["copilot-studio-target"] = "copilot-studio-target"
    target_type: str
    agent_name: str | None = None
    conversation_id: str | None = None
    success: bool = False
    stop_reason: Literal["completed", "execution_error", "timeout"] | None = None
    error: str | None = None
    greeting: list[dict[str, Any]] = Field(default_factory=list)
    turns: list[TargetTurn] = Field(default_factory=list)
    http: list[HttpExchange] = Field(default_factory=list)
    capture_errors: list[str] = Field(default_factory=list)
    duration_ms: float | None = None
    played_on: PlayedOn | None = None  # set by a distributed executor; None: played where the run was written

    @property
    def prompt(self) -> str | None:
        """The first user message, like ``CopilotResult.prompt``."""
        return self.turns[0].prompt if self.turns else None

    @property
    def responses_per_prompt(self) -> list[str | None]:
        """Per turn played, the visible answer (``None`` when the turn failed); unplayed turns are absent."""
        return [turn.answer for turn in self.turns]

    @property
    def all_responses(self) -> list[str]:
        """Every visible answer, in order."""
        return [turn.answer for turn in self.turns if turn.answer]

    @property
    def final_response(self) -> str | None:
        """The last visible answer, or ``None``."""
        answers = self.all_responses
        return answers[-1] if answers else None

    @property
    def citations(self) -> list[Citation]:
        """Every citation of every turn, in order."""
        return [citation for turn in self.turns for citation in turn.citations]

    def knowledge_seen(self, *, turn: int) -> KnowledgeSeen:
        """The knowledge the answer to user turn ``turn`` (1-based) drew on; empty for a turn not played."""
        return self.turns[turn - 1].knowledge_seen if 1 <= turn <= len(self.turns) else KnowledgeSeen()

    @property
    def rate_limit(self) -> RateLimit | None:
        """Always ``None``: the transports retry a busy platform themselves (what they saw is in ``http``)."""
        return None

    # The unknowns below are alike on purpose: each answers one member of PlayedEvidence with its own reason.
    @property
    def total_input_tokens(self) -> int | None:
        """Unknown (``None``): Copilot Studio reports no token counts to its clients."""
        return None

    @property
    def total_output_tokens(self) -> int | None:
        """Unknown (``None``): Copilot Studio reports no token counts to its clients."""
        return None

    @property
    def total_premium_requests(self) -> float | None:
        """Unknown (``None``): premium requests are a measure of the Copilot runtime, not of Copilot Studio."""
        return None

    @property
    def total_ai_credits(self) -> float | None:
        """Unknown (``None``): Copilot Studio reports no AI credits to its clients."""
        return None

    @property
    def runtime_trace(self) -> None:
        """``None``: a Copilot Studio agent runs on the platform, not in a Copilot runtime of ours."""
        return None

    @property
    def phase_times(self) -> None:
        """``None``: there is no runtime trace to read phases from (each turn's ``duration_ms`` is kept)."""
        return None

    def transcript(self) -> Transcript:
        """A Copilot Studio conversation: each prompt, the plan steps reported for it, its answer."""
        events: list[TranscriptEvent] = []
        number = 0
        for turn, played in enumerate(self.turns, start=1):
            events.append(TranscriptEvent("prompt", played.prompt, turn))
            for step in played.plan_steps:
                number += 1
                text = call_text(step.name, step.arguments)
                events.append(TranscriptEvent("call", text, turn, step.name, step.arguments, number, step.succeeded))
            if played.answer:
                events.append(TranscriptEvent("answer", played.answer, turn))
        return Transcript(events=tuple(events))

    def observed_steps(self, *, turn: int | None = None, subagent_calls: bool = True) -> list[ObservedCall] | str:
        """The plan steps the platform reported (of user turn ``turn``, or all), or why they are not visible.

        ``subagent_calls`` is accepted for the protocol's sake: a Copilot Studio plan has no subagents.
        """
        if not any(t.steps_reported for t in self.turns):
            return STEPS_NOT_VISIBLE + f" (target type {self.target_type})"
        if turn is not None and turn > len(self.turns):
            return f"turn {turn} was not played (the conversation has {len(self.turns)})"
        chosen = range(1, len(self.turns) + 1) if turn is None else [turn]
        # Alike in shape to the records grading/judge_votes.py and security/runner.py build; a plan step, not a tool call.
        calls = [
            ObservedCall(
                position=0,
                name=step.name,
                kind=step.kind,
                arguments=step.arguments,
                succeeded=step.succeeded,
                error=step.error,
                turn=number,
                call_id=step.step_id,
            )
            for number in chosen
            for step in self.turns[number - 1].plan_steps
        ]
        return renumbered(calls)

    def save(self, path: str | Path) -> Path:
        """Write this result as JSON, atomically."""
        data = self.model_dump(mode="json")
        data["derived"] = {"final_response": self.final_response, "responses_per_prompt": self.responses_per_prompt}
        return write_text_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> TargetResult:
        """Read a result written by :meth:`save`, refusing unknown schema versions."""
        data = load_json_file(path)  # size and depth bounded: evidence may come from someone else's run folder
        if (
            not isinstance(data, dict)
            or data.get("schema_version") != SCHEMA_VERSION
            or data.get("kind") != "copilot-studio-target"
        ):
            raise ValueError(f"{path}: not a Copilot Studio target result of schema_version {SCHEMA_VERSION}")
        data.pop("derived", None)
        return cls.model_validate(data)


if TYPE_CHECKING:  # mypy checks here that a target's evidence is what every reader reads
    _READ_AS: type[PlayedEvidence] = TargetResult

__all__ = ["STEPS_NOT_VISIBLE", "Attachment", "Citation", "HttpExchange", "TargetResult", "TargetTurn"]
