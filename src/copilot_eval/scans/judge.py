"""A judge scanner: an LLM judge (an agent file, like the graders' ``--judge``) reads a transcript and names findings.

Opt-in only (``--scan judge:PATH``): it asks a model, so it costs requests and is not
deterministic. The judge is shown the transcript with every event marked as WRITTEN by the agent
or READ by it, and its own instructions (the agent file's ``instructions``) say what to look for.
It answers one JSON object, ``{"findings": [{"event": ..., "reason": ..., "quote": ..., "severity": ...}]}``.
Each finding is marked as a model's opinion (``opinion``) and keeps the judge's evidence (its
session id and the answer it gave). A finding whose quote is not in text the agent wrote is
dropped: a judge, like every scanner, may not flag what the agent only read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.grading.judge import parse_judge_answer
from copilot_eval.reports.findings import SEVERITIES, quoted
from copilot_eval.scans.protocol import Hit
from copilot_eval.scans.transcript import CaseTranscript, Event

_EVENT_CHARS = 2_000  # each event shown to the judge is cut here; the evidence keeps it whole

PROMPT = """You are reviewing one transcript of an AI agent. Each event is marked WRITTEN (the agent wrote it)
or READ (the agent was shown it: the user's prompt, a tool's result). Judge only what the agent WROTE.

$events

Answer with one JSON object and nothing else:
{"findings": [{"event": "<the event's label>", "reason": "<one sentence>", "quote": "<the exact words the agent wrote>",
"severity": "info|warning|error"}]}
An empty list when nothing stands out."""


def transcript_text(case: CaseTranscript) -> str:
    """The transcript as the judge reads it: one block per event, marked WRITTEN or READ, each cut to a bound."""
    blocks = []
    for event in case.events:
        who = "WRITTEN" if event.authored else "READ"
        turn = f"turn {event.turn}, " if event.turn is not None else ""
        text = event.text if len(event.text) <= _EVENT_CHARS else event.text[:_EVENT_CHARS] + " [...]"
        blocks.append(f"[{who}] {turn}{event.label}:\n{text}")
    return "\n\n".join(blocks)


class JudgeScanner:
    """A scanner whose findings a model names, from its agent file; each is marked as the model's opinion."""

    deterministic = False

    def __init__(self, judge: CopilotEval, *, name: str = "judge", source: str | None = None) -> None:
        self.judge = judge
        self.name = name
        self.source = source
        self.description = f"an LLM judge's opinion ({source or judge.name or 'judge'})"

    @classmethod
    def from_file(cls, path: Path) -> JudgeScanner:
        """The judge of an agent file; its findings are written as ``judge-<file stem>``."""
        stem = "".join(c if c.isalnum() else "-" for c in path.stem.lower()).strip("-") or "judge"
        return cls(CopilotEval.from_file(path), name=f"judge-{stem}"[:64], source=str(path))

    def ask(self, prompt: str) -> tuple[str | None, str | None]:
        """The judge's answer to ``prompt`` and its session id (one session per case, through the runtime)."""
        from copilot_eval.runtime.session.runner import run_copilot_sync  # the SDK only when a judge runs

        result = run_copilot_sync(self.judge, prompt)
        if not result.success:
            raise RuntimeError(f"the judge's session failed: {result.error}")
        return result.final_response, result.session_id

    def scan(self, case: CaseTranscript) -> Iterator[Hit]:
        """The judge's findings in ``case``, each tied to an event the agent wrote that holds its quote."""
        answer, session = self.ask(PROMPT.replace("$events", transcript_text(case)))
        parsed = parse_judge_answer(answer)
        if parsed is None or not isinstance(parsed.get("findings"), list):
            raise ValueError(f"the judge's answer is not the JSON object asked for: {(answer or '')[:200]!r}")
        for item in parsed["findings"]:
            if isinstance(item, dict):
                hit = _hit(item, case.authored(), session)
                if hit is not None:
                    yield hit


def _hit(item: dict[str, Any], authored: list[Event], session: str | None) -> Hit | None:
    """One of the judge's findings, tied to the written event that holds its quote (None: no such event)."""
    quote = str(item.get("quote") or "").strip()
    reason = str(item.get("reason") or "the judge gave no reason")[:300]
    severity = item.get("severity") if item.get("severity") in SEVERITIES else "warning"
    if not quote:
        return None
    for event in authored:
        at = event.text.find(quote)
        if at >= 0:
            evidence = {"judgeSession": session, "judgeSaid": {k: str(v)[:300] for k, v in item.items()}}
            return Hit(reason, quoted(event.text, at, at + len(quote)), event, str(severity), True, evidence)
    return None


__all__ = ["PROMPT", "JudgeScanner", "transcript_text"]
