"""Token usage and premium requests, read from the runtime's own reports.

``assistant.usage`` carries one model call of the conversation; a count the runtime left out stays
``None``. When the runtime compacts a long conversation it calls the model itself to summarise,
and reports those calls only in ``session.compaction_complete`` (``compactionTokensUsed``, in the
shape of ``assistant.usage``, with ``requestCount``): each compaction is one entry of purpose
``compaction``. A ``session.compaction_start`` whose completion never came (the run ended first)
is an entry with unknown counts, so the totals are unknown rather than short.
Premium requests: the runtime's ``session.shutdown`` event totals the whole session including
subagents (``totalPremiumRequests``) and splits it per agent (``agentMetrics``: ``"main"`` for
the root, the child's ``agentId`` for each subagent, each with per-model ``requests.cost``).
To count descendant work exactly once, each scope takes its own share: the agentMetrics entry
when present; the root without children may use ``totalPremiumRequests``; without a shutdown
event, the sum of the per-call ``cost`` fields when every call reported one; otherwise ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from copilot_eval.capture.events import (
    ROOT,
    dict_or_empty,
    event_data,
    event_id,
    event_type,
    int_or_none,
    number_or_none,
    text_or_none,
)
from copilot_eval.evidence import CaptureError, UsageEntry
from copilot_eval.evidence.usage import sum_known


def _duration_ms(data: dict[str, Any]) -> float | None:
    # to_dict() writes the SDK's timedelta ``duration`` as milliseconds; older logs say durationMs.
    for key in ("duration", "durationMs"):
        value = number_or_none(data.get(key))
        if value is not None:
            return value
    return None


NANO_AIU_PER_CREDIT = 1e9  # the runtime counts AI credits in nano AI units (copilotUsage.totalNanoAiu)


def _ai_credits(data: dict[str, Any]) -> float | None:
    # A BYOK or scripted model's calls carry no copilotUsage (aiCreditsStatus "unavailable"): unknown, not 0.
    nano = number_or_none(dict_or_empty(data.get("copilotUsage")).get("totalNanoAiu"))
    return nano / NANO_AIU_PER_CREDIT if nano is not None else None


def usage_entry(data: dict[str, Any], scope: str) -> UsageEntry:
    """One usage entry from an ``assistant.usage`` payload."""
    # Alike in shape to studio_eval.shapes' readers (field=reader(payload key)): another payload, kept apart.
    return UsageEntry(
        model=text_or_none(data.get("model")),
        input_tokens=int_or_none(data.get("inputTokens")),
        output_tokens=int_or_none(data.get("outputTokens")),
        cache_read_tokens=int_or_none(data.get("cacheReadTokens")),
        cache_write_tokens=int_or_none(data.get("cacheWriteTokens")),
        reasoning_tokens=int_or_none(data.get("reasoningTokens")),
        reasoning_effort=text_or_none(data.get("reasoningEffort")),
        duration_ms=_duration_ms(data),
        premium_requests=number_or_none(data.get("cost")),
        ai_credits=_ai_credits(data),
        api_call_id=text_or_none(data.get("apiCallId")),
        agent_id=scope or None,
    )


def compaction_entry(data: dict[str, Any], scope: str) -> UsageEntry:
    """The usage of one compaction, from its ``session.compaction_complete`` payload."""
    used = data.get("compactionTokensUsed")
    if not isinstance(used, dict):  # completed without reporting its counts: unknown, not zero
        return UsageEntry(
            purpose="compaction", request_count=None, model=text_or_none(data.get("model")), agent_id=scope or None
        )
    entry = usage_entry(used, scope)
    return entry.model_copy(
        update={
            "purpose": "compaction",
            "request_count": int_or_none(used.get("requestCount")),
            "model": entry.model or text_or_none(data.get("model")),
            "premium_requests": None,  # compactionTokensUsed carries no cost
        }
    )


_USAGE_EVENTS = ("assistant.usage", "session.compaction_start", "session.compaction_complete")


def usage_of(events: Iterable[dict[str, Any]], *, scope: str, errors: list[CaptureError]) -> list[UsageEntry]:
    """Usage entries of one scope, in order; an unreadable payload becomes a capture error."""
    entries: list[UsageEntry] = []
    unfinished: dict[str | None, int] = {}  # compaction attempt id -> index of its placeholder entry
    for event in events:
        kind = event_type(event)
        if kind not in _USAGE_EVENTS:
            continue
        data = event_data(event)
        if data is None:
            errors.append(
                CaptureError(
                    kind="unparsed_event", event_id=event_id(event), message=f"{kind} without a payload object"
                )
            )
            continue
        if kind == "assistant.usage":
            entries.append(usage_entry(data, scope))
            continue
        attempt = text_or_none(data.get("compactionAttemptId"))
        if kind == "session.compaction_start":
            unfinished[attempt] = len(entries)
            entries.append(
                UsageEntry(
                    purpose="compaction",
                    request_count=None,
                    model=text_or_none(data.get("model")),
                    agent_id=scope or None,
                )
            )
        elif attempt in unfinished:
            entries[unfinished.pop(attempt)] = compaction_entry(data, scope)
        else:
            entries.append(compaction_entry(data, scope))
    return entries


def unfinished_compactions(events: Iterable[dict[str, Any]]) -> list[str]:
    """Warnings for compactions that started and never reported their usage before the run ended."""
    started: dict[str | None, None] = {}
    for event in events:
        kind, data = event_type(event), event_data(event) or {}
        attempt = text_or_none(data.get("compactionAttemptId"))
        if kind == "session.compaction_start":
            started[attempt] = None
        elif kind == "session.compaction_complete":
            started.pop(attempt, None)
    return [
        f"the runtime started a compaction ({attempt or 'no attempt id'}) that had not reported its model "
        "usage when the run ended: the token totals are unknown"
        for attempt in started
    ]


def _agent_share(shutdown: dict[str, Any], scope: str) -> float | None:
    metrics = shutdown.get("agentMetrics")
    entry = metrics.get("main" if scope == ROOT else scope) if isinstance(metrics, dict) else None
    models = entry.get("modelMetrics") if isinstance(entry, dict) else None
    if not isinstance(models, dict) or not models:
        return None
    costs = [
        number_or_none(dict_or_empty(m.get("requests")).get("cost")) if isinstance(m, dict) else None
        for m in models.values()
    ]
    share = sum_known(costs)
    return None if share is None else float(share)


def premium_requests(
    shutdown: dict[str, Any] | None, *, scope: str, usage: list[UsageEntry], has_children: bool
) -> float | None:
    """This scope's own premium requests as the runtime reported them, or ``None``."""
    if shutdown is not None:
        if scope == ROOT and not has_children:
            total = number_or_none(shutdown.get("totalPremiumRequests"))
            if total is not None:
                return total
        share = _agent_share(shutdown, scope)
        if share is not None:
            return share
    total = sum_known(entry.premium_requests for entry in usage) if usage else None
    return None if total is None else float(total)
