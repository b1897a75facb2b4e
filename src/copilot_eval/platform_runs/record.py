"""The one step every platform-made run goes through: case results in, an EvalRun out.

Our own runs and the platform's are summarised by the same ``summarise`` (counts, score over
graded cases, generic limitation signals). A platform run adds the signals only the platform
gives (a run that ended Failed, every case without an answer, an HTTP 500 on the published
agent), merged into the same suspected limitation, and the record of where it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from copilot_eval.evalsets import (
    Confidence,
    EvalCaseResult,
    EvalRun,
    EvalTestSet,
    LimitationStanding,
    PlatformRunRecord,
)
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.limitation import KNOWN_FALLBACK_TEXTS, Limitation, detect_runtime_limitation

#: A platform signal: the reason, and the evidence that raised it.
Signal = tuple[str, list[str]]


def platform_run(
    test_set: EvalTestSet,
    results: list[EvalCaseResult],
    *,
    confidence: Confidence,
    note: str | None,
    agent_name: str | None = None,
    started: datetime | None = None,
    duration_ms: float | None = None,
    signals: Sequence[Signal] = (),
    record: PlatformRunRecord | None = None,
    evidence: Iterable[str] = (),
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
) -> EvalRun:
    """The EvalRun of a platform-made run: summarised like ours, platform signals merged into its limitation."""
    fallback_texts = tuple(fallback_texts)
    run = summarise(
        test_set,
        results,
        agent_name=agent_name,
        started=started,
        duration_ms=duration_ms,
        fallback_texts=fallback_texts,
        confidence=confidence,
        note=note,
    )
    update: dict[str, object] = {"evidence": list(evidence) or run.evidence, "platform_run": record}
    if signals:
        generic = detect_runtime_limitation(results, fallback_texts=fallback_texts)
        merged = Limitation(
            reasons=[reason for reason, _ in signals] + (generic.reasons if generic else []),
            evidence=[item for _, cited in signals for item in cited] + (generic.evidence if generic else []),
        )
        update["runtime_limitation"] = merged.describe()
        update["limitation_standing"] = LimitationStanding.SUSPECTED
    if not results and signals:
        update["confidence"] = confidence  # a refused run is still a record of what the platform said
    return run.model_copy(update=update)


__all__ = ["Signal", "platform_run"]
