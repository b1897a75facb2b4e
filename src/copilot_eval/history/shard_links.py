"""Shards and the merged run that holds them: found by what they recorded, so trends count each play once.

A sharded run can reach the history twice: each ``run --shard I/N`` records its shard, and
``copilot-eval merge`` records the merged run, whose results are the shards' results. A shard run
and a merged run belong together when they are of the same series (test set, agent), the shard
is one of those the merge names (same shard count, its index among the merged shards), their
fingerprints agree where both have them, and every stored result of the shard (case, repeat,
status, score, reason, duration) is the merged run's result for that case and repeat. The
measured durations make that a match of the plays themselves, not of two nights that happened
to pass the same cases. The shard's ``merged_into`` then names the merged run, and trends leave
the shard out. It works in either order: a merged run stored first links the shards ingested
after it.

A partial merge (``merge --allow-partial`` of some shards) and the full merge of the same shards
hold the same plays twice: the merged run whose shards another merged run of the series includes,
and whose every result that other run holds as it is, is linked to it the same way (of two merges
of the very same shards, the one stored later is linked to the earlier), so trends count the
larger merge alone.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.history.lazy_tables import table

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).

_COMPARED = ("status", "score", "reason", "duration_ms")
_FINGERPRINTS = ("test_set_fingerprint", "agent_fingerprint", "graders_fingerprint")


def _same_series(runs: Any, run: Any) -> Any:
    agent = runs.c.agent_name
    return (runs.c.test_set_name == run["test_set_name"]) & (
        agent.is_(None) if run["agent_name"] is None else agent == run["agent_name"]
    )


def _results(connection: Any, run_id: int) -> dict[tuple[int, int], tuple[Any, ...]]:
    from sqlalchemy import select

    results = table("CaseResult")
    query = select(results.c.case_id, results.c.repeat_index, *(results.c[name] for name in _COMPARED))
    return {(row[0], row[1]): tuple(row[2:]) for row in connection.execute(query.where(results.c.run_id == run_id))}


def _holding_one_play(connection: Any, shard_id: int, merged_ids: list[int]) -> set[int]:
    """Of ``merged_ids``, the merged runs that hold the shard's first stored play as it is.

    One indexed query, so that storing a shard does not read the results of every merged run its
    series ever had (one a night); only the runs found here are compared result by result.
    """
    from sqlalchemy import select

    played = _results(connection, shard_id)
    if not played or not merged_ids:
        return set()
    (case_id, repeat_index), values = min(played.items())
    results = table("CaseResult")
    query = select(results.c.run_id).where(
        results.c.case_id == case_id, results.c.repeat_index == repeat_index, results.c.run_id.in_(merged_ids)
    )
    for name, value in zip(_COMPARED, values, strict=True):
        if value is not None:  # SQL's = never matches NULL; the full comparison after this checks those
            query = query.where(results.c[name] == value)
    return {row[0] for row in connection.execute(query)}


def _fingerprints_agree(shard: Any, merged: Any) -> bool:
    return all(shard[name] is None or merged[name] is None or shard[name] == merged[name] for name in _FINGERPRINTS)


def _holds(connection: Any, merged: Any, shard: Any, merged_results: dict[tuple[int, int], tuple[Any, ...]]) -> bool:
    """Whether ``merged`` holds every stored result of ``shard`` as it is."""
    if shard["shard_index"] not in (merged["merged_shards"] or []) or not _fingerprints_agree(shard, merged):
        return False
    played = _results(connection, shard["id"])
    return bool(played) and all(merged_results.get(key) == value for key, value in played.items())


def _merge_holds(
    connection: Any, larger: Any, smaller: Any, larger_results: dict[tuple[int, int], tuple[Any, ...]]
) -> bool:
    """Whether merged run ``larger`` holds every shard and every result of merged run ``smaller``."""
    shards, others = set(smaller["merged_shards"] or []), set(larger["merged_shards"] or [])
    if not shards <= others or (shards == others and smaller["id"] < larger["id"]):
        return False
    if not _fingerprints_agree(smaller, larger):
        return False
    played = _results(connection, smaller["id"])
    return bool(played) and all(larger_results.get(key) == value for key, value in played.items())


def _link_merges(connection: Any, run: Any) -> int:
    """Link a merged run just stored and the other merged runs of its series over the same shards."""
    from sqlalchemy import select, update

    runs = table("Run")
    query = select(runs).where(
        _same_series(runs, run),
        runs.c.merge_shard_count == run["merge_shard_count"],
        runs.c.merged_into.is_(None),
        runs.c.id != run["id"],
    )
    mine = _results(connection, run["id"])
    linked = 0
    for other in connection.execute(query.order_by(runs.c.id)).mappings():
        if _merge_holds(connection, run, other, mine):
            connection.execute(update(runs).where(runs.c.id == other["id"]).values(merged_into=run["id"]))
            linked += 1
        elif _merge_holds(connection, other, run, _results(connection, other["id"])):
            connection.execute(update(runs).where(runs.c.id == run["id"]).values(merged_into=other["id"]))
            return linked + 1  # a merged run is held by one other
    return linked


def link_shards(connection: Any, run_id: int) -> int:
    """Link the run just stored to its shards (a merged run) or its merged run (a shard); how many links were made."""
    from sqlalchemy import select, update

    runs = table("Run")
    run = connection.execute(select(runs).where(runs.c.id == run_id)).mappings().one()
    if run["merge_shard_count"] is not None:
        query = select(runs).where(
            _same_series(runs, run),
            runs.c.shard_count == run["merge_shard_count"],
            runs.c.merged_into.is_(None),
            runs.c.id != run_id,
        )
        pairs = [(run, shard) for shard in connection.execute(query).mappings()]
        merges = _link_merges(connection, run)
    elif run["shard_index"] is not None and run["merged_into"] is None:
        query = select(runs).where(_same_series(runs, run), runs.c.merge_shard_count == run["shard_count"])
        merged_runs = list(connection.execute(query.order_by(runs.c.id)).mappings())
        holding = _holding_one_play(connection, run_id, [merged["id"] for merged in merged_runs])
        pairs = [(merged, run) for merged in merged_runs if merged["id"] in holding]
    else:
        return 0
    linked = merges if run["merge_shard_count"] is not None else 0
    cache: dict[int, dict[tuple[int, int], tuple[Any, ...]]] = {}
    for merged, shard in pairs:
        if merged["id"] not in cache:
            cache[merged["id"]] = _results(connection, merged["id"])
        if _holds(connection, merged, shard, cache[merged["id"]]):
            connection.execute(update(runs).where(runs.c.id == shard["id"]).values(merged_into=merged["id"]))
            linked += 1
            if run["shard_index"] is not None:
                break  # a shard belongs to one merged run
    return linked


__all__ = ["link_shards"]
