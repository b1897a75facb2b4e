"""What a fake Copilot Studio agent does for each question: a script shared by both protocol fakes.

A ``FakeAgent`` maps question substrings to a ``Reply``; a reply is either an HTTP fault or a list
of timed steps, each sending one bot activity (or, for the Agents SDK fake, one raw SSE frame).
The builders below produce the situations a harness must survive: grounded answers with
citations, the system fallback, HTTP 500/502/429/403, slow and silent agents, several messages, a
typing stream, a consent card, a platform error code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FALLBACK_TEXT = "I'm sorry, I'm not sure how to help with that. Can you try rephrasing?"


@dataclass(frozen=True)
class HttpFault:
    """Answer the user's message with an HTTP error; ``times`` failures then normal replies (None: always)."""

    status: int
    code: str | None = None
    message: str = "the fake agent was told to fail"
    retry_after: float | None = None
    times: int | None = None


@dataclass(frozen=True)
class Step:
    """After ``delay_s``, send ``activity`` (fields of a bot activity) or, over SSE, the ``raw`` frame text."""

    delay_s: float = 0.0
    activity: dict[str, Any] | None = None
    raw: str | None = None


@dataclass(frozen=True)
class Reply:
    """Everything the fake agent does for one user message."""

    steps: tuple[Step, ...] = ()
    fault: HttpFault | None = None
    end_of_stream: bool = True  # Agents SDK fake: send `event: end` after the steps


def message(text: str, **extra: Any) -> dict[str, Any]:
    """A bot ``message`` activity body in markdown."""
    return {"type": "message", "text": text, "textFormat": "markdown", **extra}


def answer(text: str, *, delay_s: float = 0.0) -> Reply:
    """One plain answer."""
    return Reply((Step(delay_s, message(text)),))


def grounded(text: str, sources: Sequence[tuple[str, str]], *, delay_s: float = 0.0) -> Reply:
    """An answer with citations in both forms Copilot Studio sends: reference links and Claim entities.

    ``text`` carries the ``[1]`` markers; ``sources`` are (url, title) in position order.
    """
    links = "\n".join(f'[{n}]: {url} "{title}"' for n, (url, title) in enumerate(sources, start=1))
    claims = [
        {
            "@type": "Claim",
            "@id": url,
            "position": str(n),
            "appearance": {
                "@type": "DigitalDocument",
                "name": title,
                "url": url,
                "abstract": f"An excerpt of {title}.",
                "usageInfo": {"@type": "CreativeWork", "name": "General"},
            },
            "claimInterpreter": {"@type": "Project", "slogan": "Surfaced with Azure OpenAI"},
        }
        for n, (url, title) in enumerate(sources, start=1)
    ]
    entity = {
        "@context": "https://schema.org",
        "@id": "",
        "@type": "Message",
        "type": "https://schema.org/Message",
        "keywords": ["AIGeneratedContent"],
        "citation": claims,
    }
    return Reply((Step(delay_s, message(f"{text}\n\n{links}", entities=[entity])),))


def fallback(text: str = FALLBACK_TEXT) -> Reply:
    """The system fallback topic's answer (an answer, and a wrong one)."""
    return answer(text)


def http_error(
    status: int,
    code: str | None = None,
    *,
    message: str = "the fake agent was told to fail",
    retry_after: float | None = None,
    times: int | None = None,
    then: Reply | None = None,
) -> Reply:
    """An HTTP error for the user's message (500, 502 BotRejectedActivity, 429, 403 TokenExpired ...).

    With ``times``, only the first ``times`` messages fail; later ones get ``then`` (default: the fallback).
    """
    after = then if then is not None else fallback()
    return Reply(after.steps, HttpFault(status, code, message, retry_after, times), after.end_of_stream)


def slow(delay_s: float, reply: Reply) -> Reply:
    """``reply``, with its first step delayed by ``delay_s``."""
    if not reply.steps:
        return reply
    first, *rest = reply.steps
    return Reply((Step(first.delay_s + delay_s, first.activity, first.raw), *rest), reply.fault, reply.end_of_stream)


def silent() -> Reply:
    """The agent accepts the message and never answers."""
    return Reply()


def messages(*texts: str, gap_s: float = 0.05) -> Reply:
    """Several separate messages for one question."""
    return Reply(tuple(Step(gap_s if n else 0.0, message(text)) for n, text in enumerate(texts)))


def typing_stream(chunks: Sequence[str], final: str, *, gap_s: float = 0.02) -> Reply:
    """Live-streamed interim text (``typing`` activities) and the final message, as Copilot Studio streams."""
    steps = [
        Step(
            gap_s,
            {
                "type": "typing",
                "text": "".join(chunks[: n + 1]),
                "channelData": {"streamType": "streaming", "streamSequence": n + 1, "streamId": "s1"},
            },
        )
        for n in range(len(chunks))
    ]
    steps.append(Step(gap_s, message(final, channelData={"streamType": "final", "streamId": "s1"})))
    return Reply(tuple(steps))


def consent_card() -> Reply:
    """A connector consent card (Adaptive Card with Allow / Cancel) instead of an answer."""
    card = {
        "type": "AdaptiveCard",
        "version": "1.5",
        "body": [{"type": "TextBlock", "text": "Allow the agent to use SharePoint on your behalf?"}],
        "actions": [
            {"type": "Action.Submit", "title": "Allow", "data": {"action": "Allow", "id": "submit"}},
            {"type": "Action.Submit", "title": "Cancel", "data": {"action": "Cancel", "id": "submit"}},
        ],
    }
    return Reply(
        (
            Step(
                0.0,
                {
                    "type": "message",
                    "attachments": [{"contentType": "application/vnd.microsoft.card.adaptive", "content": card}],
                },
            ),
        )
    )


def platform_error(code: str = "SystemError") -> Reply:
    """The agent-side failure message Copilot Studio sends as an ordinary message."""
    return answer(f"Sorry, something went wrong. Error code: {code}. Conversation Id: fake. Time (UTC): now.")


def end_of_conversation(text: str) -> Reply:
    """An answer followed by ``endOfConversation``."""
    return Reply((Step(0.0, message(text)), Step(0.02, {"type": "endOfConversation"})))


@dataclass(frozen=True)
class PlannedStep:
    """One step of a generatively orchestrated answer: what ran (``taskDialogId``), with what, how it ended."""

    dialog_id: str  # "cr1_orders.action.LookupOrder", "cr1_orders.topic.Greeting", "P:UniversalSearchTool"
    arguments: dict[str, Any] | None = None
    state: str = "completed"
    error: str | None = None


def _event(name: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"type": "event", "name": name, "valueType": name, "value": value}


def orchestrated(text: str, steps: Sequence[PlannedStep], *, plan_id: str = "plan-1") -> Reply:
    """An answer after the plan events an agent with generative orchestration sends, step by step."""
    plan = {"planIdentifier": plan_id, "steps": [s.dialog_id for s in steps]}
    activities = [_event("DynamicPlanReceived", plan)]
    for number, step in enumerate(steps, start=1):
        ids = {"planIdentifier": plan_id, "stepId": f"{plan_id}-step{number}", "taskDialogId": step.dialog_id}
        activities.append(_event("DynamicPlanStepTriggered", {**ids, "state": "inProgress", "thought": "needed"}))
        if step.arguments is not None:
            activities.append(_event("DynamicPlanStepBindUpdate", {**ids, "arguments": step.arguments}))
        finished: dict[str, Any] = {**ids, "state": step.state}
        if step.error is not None:
            finished["error"] = {"message": step.error}
        activities.append(_event("DynamicPlanStepFinished", finished))
    activities += [_event("DynamicPlanFinished", {"planIdentifier": plan_id}), message(text)]
    return Reply(tuple(Step(0.0, activity) for activity in activities))


@dataclass
class FakeAgent:
    """The script of a fake agent: first rule whose text occurs in the question wins, else ``default``."""

    rules: list[tuple[str, Reply]] = field(default_factory=list)
    default: Reply = field(default_factory=fallback)
    greeting: Reply | None = field(default_factory=lambda: answer("Hello, I'm a fake Copilot Studio agent."))
    name: str = "Fake agent"

    def reply_for(self, text: str) -> Reply:
        """The scripted reply for the user's ``text`` (matched ignoring case)."""
        folded = (text or "").casefold()
        return next((reply for key, reply in self.rules if key.casefold() in folded), self.default)


__all__ = [
    "FALLBACK_TEXT",
    "FakeAgent",
    "FakeEndpoint",
    "HttpFault",
    "PlannedStep",
    "Reply",
    "Step",
    "answer",
    "consent_card",
    "end_of_conversation",
    "fallback",
    "grounded",
    "http_error",
    "message",
    "messages",
    "orchestrated",
    "platform_error",
    "silent",
    "slow",
    "typing_stream",
]


class FakeEndpoint:
    """What both protocol fakes share: their URL once served, the ASGI entry, and fault counting."""

    url: str = ""
    _app: Any
    _fault_counts: dict[int, int]

    def on_start(self, url: str) -> None:
        """Called by LoopbackServer once the port is known."""
        self.url = url

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The ASGI entry point."""
        await self._app(scope, receive, send)

    def _due_fault(self, reply: Reply) -> HttpFault | None:
        """The reply's fault when it should fire now (``times`` counts per reply), else None."""
        fault = reply.fault
        if fault is None:
            return None
        used = self._fault_counts.get(id(reply), 0)
        if fault.times is not None and used >= fault.times:
            return None
        self._fault_counts[id(reply)] = used + 1
        return fault
