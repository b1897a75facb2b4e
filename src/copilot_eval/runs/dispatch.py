"""Handing a run's units to the executor's workers, and what happens to a play that gave no verdict.

Each worker has its own adaptive limit (``runs.adaptive``). A unit goes to the worker with the
most free slots. When its play comes back:
- rate-limited (capture says so in the evidence): the worker's limit falls, and the unit is played
  again after a backoff honouring Retry-After; after ``rate_limit_retries`` more plays it is
  delivered as it is, so it is graded an ``error`` with the rate limit as its reason;
- ``WorkerLost``: an infrastructure fault; a dead worker takes no more units and the unit goes
  back to the front of the queue for another worker, at most ``infrastructure_attempts`` plays;
- otherwise it is delivered, to be graded and checkpointed exactly once.
A unit is delivered once, so a graded result is never played again. Every retry is recorded.
With a ``stop`` (a run budget, ``runs.run_budget``), no unit starts once it gives a reason: the
plays in flight finish and are delivered, and every unit left is handed to ``skip`` with that reason.
``played`` sees every play's evidence as it comes back, before anything else starts, so what a
session spent counts before the next conversation could start. What a judge spent is known only
once the case is graded: with ``stop_waits_for_grading`` (a judges' cap) no unit starts while a
delivery is still being graded, so the cap is decided on everything spent, not on a guess.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.evalsets import ConcurrencyChange, RetryRecord
from copilot_eval.runs.adaptive import AdaptiveLimit, backoff_s
from copilot_eval.runs.case_runner import Unit, failed_play
from copilot_eval.runs.executor import AllWorkersLost, Worker, WorkerLost
from copilot_eval.runs.target import PlayedEvidence

Deliver = Callable[[Unit, PlayedEvidence, "str | None"], Awaitable[None]]
Skip = Callable[[Unit, str], Awaitable[None]]

DEFAULT_RATE_LIMIT_RETRIES = 3
DEFAULT_INFRASTRUCTURE_ATTEMPTS = 3


@dataclass
class DispatchLog:
    """What the dispatch saw: the concurrency history of every worker and every retry."""

    history: list[ConcurrencyChange] = field(default_factory=list)
    retries: list[RetryRecord] = field(default_factory=list)


@dataclass
class _Play:
    unit: Unit
    worker: Worker
    generation: int


class Dispatcher:
    """Plays ``units`` on ``workers`` and delivers each unit's final evidence once."""

    def __init__(
        self,
        units: Sequence[Unit],
        workers: Sequence[Worker],
        *,
        concurrency: int,
        deliver: Deliver,
        rate_limit_retries: int = DEFAULT_RATE_LIMIT_RETRIES,
        infrastructure_attempts: int = DEFAULT_INFRASTRUCTURE_ATTEMPTS,
        stop: Callable[[], str | None] | None = None,
        skip: Skip | None = None,
        played: Callable[[Unit, PlayedEvidence], None] | None = None,
        stop_waits_for_grading: bool = False,
    ) -> None:
        started = time.monotonic()
        self.queue: deque[Unit] = deque(units)
        self.alive = list(workers)
        self.limits = {w.info.name: AdaptiveLimit(concurrency, w.info.name, started_at=started) for w in workers}
        self.busy: Counter[str] = Counter()
        self.plays: Counter[str] = Counter()
        self.rate_limited: Counter[str] = Counter()
        self.lost: Counter[str] = Counter()
        self.deliver, self.log = deliver, DispatchLog()
        self.rate_limit_retries, self.infrastructure_attempts = rate_limit_retries, infrastructure_attempts
        self._running: dict[asyncio.Future[Any], _Play] = {}
        self._side: set[asyncio.Future[Any]] = set()  # backoff sleeps and deliveries
        self.stop, self.skip, self.played = stop, skip, played
        self.stop_waits_for_grading = stop_waits_for_grading
        self._delivering: set[asyncio.Future[Any]] = set()  # deliveries still being graded

    async def run(self) -> DispatchLog:
        """Until every unit is delivered; AllWorkersLost when units are left and no worker is."""
        try:
            while True:
                self._start_ready()
                pending = set(self._running) | self._side
                if not pending:
                    if self.queue:
                        raise AllWorkersLost(f"every worker was lost with {len(self.queue)} units left to play")
                    return self.log
                done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    if future in self._side:
                        self._side.discard(future)
                        future.result()  # a delivery that raised stops the run
                    else:
                        self._settle(future, self._running.pop(future))
        finally:
            await self._cancel_all()
            for limit in self.limits.values():
                self.log.history.extend(limit.history)
            self.log.history.sort(key=lambda change: change.at_s)

    def _free_worker(self) -> Worker | None:
        free = [(self.limits[w.info.name].limit - self.busy[w.info.name], w) for w in self.alive]
        best = max(free, key=lambda pair: pair[0], default=(0, None))
        return best[1] if best[0] > 0 else None

    def _start_ready(self) -> None:
        if self.stop is not None and self.stop_waits_for_grading and any(not f.done() for f in self._delivering):
            return  # a judge's spending is still being counted: decide when it is
        self._delivering = {f for f in self._delivering if not f.done()}
        if self.queue and self.stop is not None and (reason := self.stop()) is not None:
            while self.queue:  # no new conversation starts; those in flight finish
                unit = self.queue.popleft()
                if self.skip is not None:
                    self._spawn(self.skip(unit, reason))
            return
        while self.queue and (worker := self._free_worker()) is not None:
            unit = self.queue.popleft()
            name = worker.info.name
            self.busy[name] += 1
            self.plays[unit.key] += 1
            task = asyncio.ensure_future(worker.play(unit))
            self._running[task] = _Play(unit, worker, self.limits[name].generation)

    def _settle(self, future: asyncio.Future[Any], play: _Play) -> None:
        name = play.worker.info.name
        self.busy[name] -= 1
        try:
            evidence = future.result()
        except WorkerLost as lost:
            self._on_lost(play, lost)
            return
        if self.played is not None:
            self.played(play.unit, evidence)
        rate_limit = evidence.rate_limit  # targets retry a busy platform themselves and carry none
        if rate_limit is None:
            self.limits[name].clean()
            self._delivering.add(self._spawn(self.deliver(play.unit, evidence, None)))
            return
        self.limits[name].rate_limited(play.generation)
        count = self.rate_limited[play.unit.key] = self.rate_limited[play.unit.key] + 1
        detail = f"HTTP {rate_limit.status}" + (
            f", Retry-After {rate_limit.retry_after_s:g} s" if rate_limit.retry_after_s is not None else ""
        )
        if count > self.rate_limit_retries:
            self._record(play, "rate_limit", detail, given_up=True)
            note = f"rate limited: the model still refused after {count} plays ({detail})"
            self._delivering.add(self._spawn(self.deliver(play.unit, evidence, note)))
            return
        wait = backoff_s(count, rate_limit.retry_after_s)
        self._record(play, "rate_limit", detail, wait_s=round(wait, 3))
        self._spawn(self._requeue_after(play.unit, wait))

    def _on_lost(self, play: _Play, lost: WorkerLost) -> None:
        name = play.worker.info.name
        if lost.dead and play.worker in self.alive:
            self.alive.remove(play.worker)
            self.limits[name].lost()
        count = self.lost[play.unit.key] = self.lost[play.unit.key] + 1
        if count >= self.infrastructure_attempts:
            self._record(play, "infrastructure", str(lost), given_up=True)
            prompts = [case.question for case in play.unit.cases]
            error = f"infrastructure fault: the worker playing this unit was lost {count} times (last: {lost})"
            self._delivering.add(self._spawn(self.deliver(play.unit, failed_play(prompts, error), None)))
            return
        self._record(play, "infrastructure", str(lost))
        self.queue.appendleft(play.unit)  # first in line for the next free worker

    def _record(
        self, play: _Play, cause: Any, detail: str, *, wait_s: float | None = None, given_up: bool = False
    ) -> None:
        self.log.retries.append(
            RetryRecord(
                unit=play.unit.key,
                attempt=self.plays[play.unit.key],
                cause=cause,
                worker=play.worker.info.name,
                detail=detail,
                wait_s=wait_s,
                given_up=given_up,
            )
        )

    async def _requeue_after(self, unit: Unit, wait: float) -> None:
        await asyncio.sleep(wait)
        self.queue.append(unit)

    def _spawn(self, work: Awaitable[None]) -> asyncio.Future[Any]:
        future = asyncio.ensure_future(work)
        self._side.add(future)
        return future

    async def _cancel_all(self) -> None:
        pending = [*self._running, *self._side]
        for future in pending:
            future.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)


__all__ = [
    "DEFAULT_INFRASTRUCTURE_ATTEMPTS",
    "DEFAULT_RATE_LIMIT_RETRIES",
    "Deliver",
    "DispatchLog",
    "Dispatcher",
    "Skip",
]
