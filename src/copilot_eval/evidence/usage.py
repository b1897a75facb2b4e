"""Token usage per model call; a missing count is ``None``, a known zero stays ``0``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, TypeVar

from pydantic import BaseModel

UsagePurpose = Literal["turn", "compaction"]
# A count (tokens) or an amount (premium requests, AI credits): a sum keeps the kind it adds up.
_Number = TypeVar("_Number", int, float)


class UsageEntry(BaseModel):
    """The runtime's report of one model call, or of one compaction's model calls.

    ``purpose`` is ``turn`` for a call of the agent's conversation (``assistant.usage``) and
    ``compaction`` for the runtime's own summarising calls when it compacted the conversation
    (``session.compaction_complete``; ``request_count`` says how many requests the runtime made for
    it). A compaction that started and never reported its counts has ``None`` counts: the totals
    are then unknown, not smaller.
    """

    # Optional fields alike in shape to DiscoveredSkill's and TargetTurn's: one model call's counts, kept apart.
    purpose: UsagePurpose = "turn"
    request_count: int | None = 1
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    reasoning_effort: str | None = None
    duration_ms: float | None = None
    premium_requests: float | None = None
    # AI credits the runtime counted for the call (its nano AI units / 1e9); ``None`` where it
    # counts none: a BYOK or scripted model (the runtime says ``aiCreditsStatus: unavailable``).
    ai_credits: float | None = None
    api_call_id: str | None = None
    agent_id: str | None = None


class ModelPrice(BaseModel):
    """Prices of one model in currency units per million tokens."""

    input_per_million: float
    output_per_million: float
    cached_input_per_million: float | None = None


def sum_known(values: Iterable[_Number | None]) -> _Number | None:
    """Sum of values, or ``None`` as soon as one is unknown (unknown is not zero)."""
    total: _Number = 0
    for value in values:
        if value is None:
            return None
        total += value
    return total


def estimate_cost(entries: Iterable[UsageEntry], prices: Mapping[str, ModelPrice]) -> float | None:
    """Cost estimate from reported counts; ``None`` when a count or a price is unknown.

    Cache reads get the cached rate only when the runtime reported them; an unknown cache-read
    count is charged at the full input rate (no discount is assumed).
    """
    total = 0.0
    for entry in entries:
        price = prices.get(entry.model or "")
        if price is None or entry.input_tokens is None or entry.output_tokens is None:
            return None
        cached = entry.cache_read_tokens or 0
        if price.cached_input_per_million is None or entry.cache_read_tokens is None:
            cached = 0
        cached = min(cached, entry.input_tokens)
        uncached = entry.input_tokens - cached
        total += uncached * price.input_per_million / 1e6
        total += cached * (price.cached_input_per_million or 0.0) / 1e6
        total += entry.output_tokens * price.output_per_million / 1e6
    return total
