"""Which plays of a trigger set start, and where: its shard's prompts, under its run budget, here or on Ray.

A shard of a trigger set is the prompts ``runs.shards`` deals to it, each prompt a conversation of
the set's test set (``trigger_test_set``), so ``copilot-eval merge`` checks a trigger shard as it
checks a test set's. Plays are started in order, one per free slot (``concurrency`` here, or
``concurrency`` on each Ray worker); before each start the run budget (``runs.run_budget``) is
asked, and once a cap is reached no play starts: the rest are recorded ``not_run`` with the reason,
never as a miss and never in a rate, while those in flight finish. A Ray worker that is lost gives
its play to another; a play Ray could not return is an error play; no worker left is
``AllWorkersLost``.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from copilot_eval.evalsets import ShardInfo
from copilot_eval.evidence import CopilotResult
from copilot_eval.runs.case_runner import session_usage
from copilot_eval.runs.executor import AllWorkersLost, WorkerLost
from copilot_eval.runs.run_budget import RunSpending
from copilot_eval.runs.shards import parse_shard, shard_conversations
from copilot_eval.triggers.figures import NOT_RUN, PlayRecord, play_key
from copilot_eval.triggers.record import trigger_test_set
from copilot_eval.triggers.trigger_set import TriggerPrompt, TriggerSet

__all__ = ["Lane", "Play", "play_all", "ray_lanes", "shard_of", "shard_prompts"]

Play = tuple[TriggerPrompt, int]
"""A prompt and its try (0-based)."""


@dataclass
class Lane:
    """Where plays are started: a name (``local`` or a Ray worker's), how to play a prompt, how many at once."""

    name: str
    play: Callable[[TriggerPrompt], Awaitable[CopilotResult]]
    concurrency: int
    alive: bool = True


def shard_of(shard: ShardInfo | str | None) -> ShardInfo | None:
    """``"2/3"`` or a ShardInfo as a ShardInfo (``ShardError``, a ValueError naming ``--shard``, when malformed)."""
    return parse_shard(shard) if isinstance(shard, str) else shard


def shard_prompts(trigger_set: TriggerSet, shard: ShardInfo | None) -> list[TriggerPrompt]:
    """The prompts shard ``shard`` plays (every prompt without one), in file order, assigned from the set's content."""
    if shard is None:
        return list(trigger_set.prompts)
    mine = set(shard_conversations(trigger_test_set(trigger_set), shard))
    return [prompt for prompt in trigger_set.prompts if prompt.number in mine]


def _not_played(play: Play, kind: str, reason: str) -> PlayRecord:
    prompt, repeat = play
    return PlayRecord(
        number=prompt.number, repeat=repeat, expected=prompt.expected, kind=kind, chosen=None, reason=reason
    )


async def play_all(
    plays: Sequence[Play],
    lanes: Sequence[Lane],
    *,
    spending: RunSpending,
    decide: Callable[[Play, CopilotResult], PlayRecord],
) -> tuple[list[PlayRecord], dict[str, CopilotResult]]:
    """Play each of ``plays`` on the first free slot of ``lanes``: the records (in play order) and each result by key.

    ``spending`` counts every session as it ends and, when it has a cap, stops new starts once the
    cap is reached. ``decide`` turns a play's result into its record (and keeps its evidence).
    """
    queue: deque[Play] = deque(plays)
    records: list[PlayRecord] = []
    results: dict[str, CopilotResult] = {}
    lost: list[str] = []

    async def slot(lane: Lane) -> None:
        while queue and lane.alive:
            play = queue.popleft()
            reason = spending.reached() if spending.budget else None
            if reason is not None:
                records.append(_not_played(play, NOT_RUN, reason))
                continue
            try:
                result = await lane.play(play[0])
            except WorkerLost as exc:
                if exc.dead:
                    lane.alive = False
                    lost.append(str(exc))
                    queue.appendleft(play)  # to a worker still alive
                    return
                records.append(_not_played(play, "error", str(exc)))
                continue
            spending.add_session(session_usage(result))
            records.append(decide(play, result))
            results[play_key(play[0].number, play[1])] = result

    while queue and any(lane.alive for lane in lanes):
        await asyncio.gather(*(slot(lane) for lane in lanes if lane.alive for _ in range(lane.concurrency)))
    if queue:
        raise AllWorkersLost(f"every worker was lost with {len(queue)} plays left: {'; '.join(lost)}")
    records.sort(key=lambda record: (record.number, record.repeat))
    return records, results


def ray_lanes(workers: Sequence[Any], options: dict[str, Any], concurrency: int) -> list[Lane]:
    """One lane per Ray worker (``runs.ray_executor.RayWorker``), ``concurrency`` plays at a time on each."""

    def lane(worker: Any) -> Lane:
        return Lane(worker.info.name, lambda prompt: worker.play_trigger(prompt.prompt, options), concurrency)

    return [lane(worker) for worker in workers]
