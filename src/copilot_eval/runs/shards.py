"""Shards: a plan filter that gives each of N machines its own part of a test set.

A conversation (every turn of it, every repeat) belongs to exactly one shard. The assignment is
computed from the set's content alone, never from where a process happens to stand: each
conversation gets a digest of its number and questions, the conversations are ordered by that
digest, and they are dealt out round-robin, so every machine computes the same split and the
shards differ in size by at most one conversation. The same dealing splits pytest items by node id.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

from copilot_eval.evalsets import EvalTestSet, ShardInfo, group_conversations
from copilot_eval.runs.case_runner import Unit

_Key = TypeVar("_Key", bound=Hashable)

SHARD_PATTERN = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class ShardError(ValueError):
    """A ``--shard`` value that is not ``I/N`` with 1 <= I <= N."""


def parse_shard(text: str, *, option: str = "--shard") -> ShardInfo:
    """``"2/3"`` -> ShardInfo(index=2, count=3); ShardError naming ``option`` otherwise."""
    match = SHARD_PATTERN.match(text or "")
    if match is None:
        raise ShardError(f"{option} {text!r}: expected I/N, for example 2/3 (shard 2 of 3)")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ShardError(f"{option} {text!r}: the index must be between 1 and the shard count ({index} of {count})")
    return ShardInfo(index=index, count=count)


def deal(keys: Iterable[tuple[_Key, str]], count: int) -> dict[_Key, int]:
    """Each key's shard (1-based) of ``count``, from (key, digest text) pairs: ordered by digest, dealt in turn."""
    ordered = sorted(keys, key=lambda pair: (hashlib.sha256(pair[1].encode("utf-8")).hexdigest(), pair[1]))
    return {key: position % count + 1 for position, (key, _) in enumerate(ordered)}


def conversation_shards(test_set: EvalTestSet, count: int) -> dict[int, int]:
    """conversationNumber -> shard (1-based) for ``count`` shards, from the set's content only."""
    keys = [
        (group.number, "\n".join([str(group.number), *(case.question for case in group.cases)]))
        for group in group_conversations(test_set.cases)
    ]
    return deal(keys, count)


def shard_conversations(test_set: EvalTestSet, shard: ShardInfo) -> list[int]:
    """The conversationNumbers shard ``shard`` plays, in file order."""
    owner = conversation_shards(test_set, shard.count)
    return [number for number, index in owner.items() if index == shard.index]


def units_of_shard(units: Sequence[Unit], test_set: EvalTestSet, shard: ShardInfo | None) -> list[Unit]:
    """The units of ``shard`` (all of them without one): whole conversations, with all their repeats."""
    if shard is None:
        return list(units)
    mine = set(shard_conversations(test_set, shard))
    return [unit for unit in units if unit.cases[0].conversation_number in mine]


def select_node_ids(node_ids: Sequence[str], shard: ShardInfo) -> set[str]:
    """The pytest node ids that shard ``shard`` keeps (stable by node id, balanced by count)."""
    owner = deal(((node_id, node_id) for node_id in dict.fromkeys(node_ids)), shard.count)
    return {node_id for node_id, index in owner.items() if index == shard.index}


__all__ = [
    "ShardError",
    "conversation_shards",
    "deal",
    "parse_shard",
    "select_node_ids",
    "shard_conversations",
    "units_of_shard",
]
