"""The one schedule of a lift's plays: every arm's play of a unit before the next unit, under one limit.

A unit (a case or conversation, or a trigger prompt, per repeat) is queued in each arm before the
next unit is (case1/armA, case1/armB, case2/armB, case2/armA, ...): the arm that goes first
alternates, so neither arm is always the earlier one. ``concurrency`` workers take plays from the
front of that one queue, whichever arm they belong to, so time and load fall on both arms alike
and a play starts in queue order. A run budget's ``stop`` is asked before each play starts: once
it says why, no further play starts in any arm and the rest are skipped, so both arms stop at the
same point of the queue. The order is returned as ``Slot`` records for lift.json.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

__all__ = ["Slot", "SlotOutcome", "interleave", "play_interleaved"]

U = TypeVar("U")
SlotOutcome = Literal["played", "resumed", "not_run"]


@dataclass
class Slot(Generic[U]):
    """One place in the queue: the unit, its key, the arm, and what became of it."""

    unit: U
    key: str
    arm: str
    outcome: SlotOutcome = "not_run"
    reason: str | None = None  # why a slot was not run (the budget that stopped the lift)


def interleave(units: Sequence[tuple[str, U]], arms: Sequence[str]) -> list[Slot[U]]:
    """The queue: each (key, unit) in every arm before the next unit, the first arm alternating unit by unit."""
    return [
        Slot(unit, key, arm)
        for index, (key, unit) in enumerate(units)
        for arm in (arms if index % 2 == 0 else list(reversed(arms)))
    ]


async def play_interleaved(
    slots: list[Slot[U]],
    play: Callable[[Slot[U]], Awaitable[None]],
    *,
    concurrency: int,
    done: Callable[[Slot[U]], bool] = lambda slot: False,
    stop: Callable[[], str | None] | None = None,
) -> list[Slot[U]]:
    """Play every slot not ``done`` (those are ``resumed``) in queue order, ``concurrency`` at a time.

    ``stop`` is asked before each play starts; once it gives a reason the slots left are ``not_run``
    with that reason. A play's exception propagates once the plays in flight have ended.
    """
    for slot in slots:
        if done(slot):
            slot.outcome = "resumed"
    queue = deque(slot for slot in slots if slot.outcome != "resumed")

    async def worker() -> None:
        while queue:
            why = stop() if stop is not None else None
            if why is not None:
                for slot in queue:
                    slot.reason = why
                queue.clear()
                return
            slot = queue.popleft()
            slot.outcome = "played"
            await play(slot)

    await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, len(queue) or 1)))))
    return slots
