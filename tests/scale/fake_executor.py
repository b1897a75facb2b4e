"""An executor for tests of the dispatch: workers whose plays are scripted, evidence built by capture.

Like httpx's MockTransport, it stands behind the real seam (``runs.executor``): the dispatcher,
grading, checkpoint and run folder are the real ones; only where the session was played is made up.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evalsets import WorkerInfo
from copilot_eval.runs.case_runner import Unit
from copilot_eval.runs.executor import WorkerLost
from tests.capture.event_factory import assistant, event, idle, start, user


def answered(unit: Unit) -> Any:
    """The evidence of a session that answered every prompt with 'answer to: <prompt>'."""
    events = [start()]
    for case in unit.cases:
        events += [user(case.question), assistant(f"answer to: {case.question}")]
    return result_from_events([*events, idle()], facts=RunFacts(duration_ms=5.0))


def rate_limited(unit: Unit, *, retry_after_s: float | None = 0.0) -> Any:
    """The evidence of a session the model refused with HTTP 429 past the runtime's own retries."""
    error = event("session.error", {"errorType": "rate_limit", "statusCode": 429, "message": "retried 5 times"})
    events = [start(), user(unit.cases[0].question), error, idle()]
    facts = RunFacts(duration_ms=5.0, model_failure_status=429, model_retry_after_s=retry_after_s)
    return result_from_events(events, facts=facts)


Behaviour = Callable[[Unit, int], Any]  # (unit, this worker's play count) -> evidence, or raise WorkerLost


class FakeWorker:
    """A worker that plays by ``behaviour`` after ``delay_s``; remembers what it played."""

    def __init__(self, name: str, behaviour: Behaviour, *, delay_s: float = 0.01) -> None:
        self.info = WorkerInfo(name=name, node_id=f"node-{name}")
        self.behaviour, self.delay_s = behaviour, delay_s
        self.played: list[str] = []
        self.in_flight = 0
        self.most_in_flight = 0

    async def play(self, unit: Unit) -> Any:
        """Play after a short wait; the behaviour decides the evidence (or raises WorkerLost)."""
        self.played.append(unit.key)
        number = len(self.played)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay_s)
            return self.behaviour(unit, number)
        finally:
            self.in_flight -= 1


class FakeExecutor:
    """Yields the given workers."""

    name = "fake"

    def __init__(self, *workers: FakeWorker) -> None:
        self.workers = list(workers)

    @asynccontextmanager
    async def open(self, agent: Any, *, agent_file: Path | None, concurrency: int) -> AsyncIterator[list[Any]]:
        """The workers, as they are."""
        yield self.workers


def lost_on(play_numbers: set[int], detail: str = "the worker's node left") -> Behaviour:
    """A behaviour that raises WorkerLost on the given plays of this worker and answers otherwise."""

    def behaviour(unit: Unit, play: int) -> Any:
        if play in play_numbers:
            raise WorkerLost(detail)
        return answered(unit)

    return behaviour
