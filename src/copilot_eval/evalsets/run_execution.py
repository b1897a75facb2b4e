"""How a run was executed: where its sessions ran, how its concurrency moved, which plays were retried.

None of this changes a verdict. It is kept in run.json so that a run that took long, or played
some conversations twice, says why: a rate limit (the model said "later") or an infrastructure
fault (a worker died or its node left). A graded case is never played again.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from copilot_eval.evalsets.confidence import CamelModel

RetryCause = Literal["rate_limit", "infrastructure"]


class ConcurrencyChange(CamelModel):
    """One worker's concurrency limit from ``at_s`` seconds into the run on, and why it changed."""

    at_s: float = Field(ge=0)
    worker: str
    limit: int = Field(ge=0, description="Sessions this worker may run at once; 0 once the worker is lost.")
    cause: str = Field(description="'start', 'rate limit' (halved), 'clean cases' (one added back), 'worker lost'.")


class RetryRecord(CamelModel):
    """A play of a unit that ended without a verdict and was played again (or given up on)."""

    unit: str = Field(description="The unit's checkpoint key, e.g. conversation3#0.")
    attempt: int = Field(ge=1, description="Which play of the unit this was (1 = the first).")
    cause: RetryCause
    worker: str | None = None
    detail: str | None = None
    wait_s: float | None = Field(default=None, ge=0, description="Backoff before the next play (rate limits).")
    given_up: bool = Field(default=False, description="No further play: the unit was recorded as an error.")


class WorkerInfo(CamelModel):
    """A worker that played units: its name in the history, and its node when distributed."""

    name: str
    node_id: str | None = None
    node_address: str | None = None
    hostname: str | None = None


class ExecutionRecord(CamelModel):
    """The executor of a run, its workers, the concurrency history and every retry."""

    executor: str = Field(description="'local' (one asyncio pool) or 'ray'.")
    concurrency: int = Field(ge=1, description="The configured limit per worker (--concurrency).")
    workers: list[WorkerInfo] = Field(default_factory=list)
    concurrency_history: list[ConcurrencyChange] = Field(default_factory=list)
    retries: list[RetryRecord] = Field(default_factory=list)


__all__ = ["ConcurrencyChange", "ExecutionRecord", "RetryCause", "RetryRecord", "WorkerInfo"]
