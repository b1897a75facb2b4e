"""Concurrency that adapts to the model's rate limits: halve on a rate limit, add one back slowly.

A rate-limited case says the model is over its quota, so every session in flight is likely to
be refused too: the limit is halved (multiplicative decrease, never below one). Only a case that
*started* after the last decrease counts as a new signal; the ones already in flight when it
fell are the same signal arriving late. After a full window of clean cases (as many as the
current limit) one slot is given back (additive increase), up to the configured ceiling. Every
change is kept, with its time and cause, for run.json.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from copilot_eval.evalsets import ConcurrencyChange

#: Waits without a Retry-After: 1, 2, 4 ... seconds, capped here.
MAX_BACKOFF_S = 30.0
BASE_BACKOFF_S = 1.0


def backoff_s(attempt: int, retry_after_s: float | None, *, jitter: float = 0.1) -> float:
    """How long to wait before playing a rate-limited case again (``attempt`` counts from 1).

    The model's Retry-After is honoured as a floor; without one the wait doubles per attempt.
    A little jitter keeps the cases refused together from coming back together.
    """
    exponential = min(MAX_BACKOFF_S, BASE_BACKOFF_S * 2 ** max(0, attempt - 1))
    wait = max(retry_after_s, exponential) if retry_after_s is not None else exponential
    return wait * (1 + random.uniform(0, jitter))


@dataclass
class AdaptiveLimit:
    """One worker's concurrency limit, with its history of changes."""

    ceiling: int
    worker: str
    started_at: float = field(default_factory=time.monotonic)
    limit: int = 0
    history: list[ConcurrencyChange] = field(default_factory=list)
    _clean: int = 0
    _generation: int = 0  # bumped at each decrease: plays started before it are stale signals

    def __post_init__(self) -> None:
        if self.ceiling < 1:
            raise ValueError(f"concurrency must be at least 1, got {self.ceiling}")
        self.limit = self.limit or self.ceiling
        self._record(self.limit, "start")

    @property
    def generation(self) -> int:
        """Tag a play with this when it starts; give it back to :meth:`rate_limited`."""
        return self._generation

    def rate_limited(self, started_in: int) -> bool:
        """A case started in generation ``started_in`` was rate-limited; whether the limit fell."""
        self._clean = 0
        if started_in != self._generation or self.limit == 1:
            return False
        self._generation += 1
        self.limit = max(1, self.limit // 2)
        self._record(self.limit, "rate limit")
        return True

    def clean(self) -> bool:
        """A case ended without a rate limit; whether the limit rose by one."""
        if self.limit >= self.ceiling:
            return False
        self._clean += 1
        if self._clean < self.limit:
            return False
        self._clean = 0
        self.limit += 1
        self._record(self.limit, "clean cases")
        return True

    def lost(self) -> None:
        """The worker is gone: record its limit falling to zero."""
        self.limit = 0
        self._record(0, "worker lost")

    def _record(self, limit: int, cause: str) -> None:
        self.history.append(
            ConcurrencyChange(
                at_s=round(time.monotonic() - self.started_at, 3), worker=self.worker, limit=limit, cause=cause
            )
        )


__all__ = ["BASE_BACKOFF_S", "MAX_BACKOFF_S", "AdaptiveLimit", "backoff_s"]
