"""The words every view uses for how a run was executed: executor, retries, concurrency, shard, merge.

Read from run.json (``EvalRun.execution``, ``shard``, ``merge``, ``fingerprints``) and, for which
node played a case, from the case's evidence (``played_on``). None of it is a verdict: it says
why a run took long or played some conversations twice, and what part of a larger run it is.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from copilot_eval.evalsets.run_execution import ExecutionRecord
from copilot_eval.evalsets.run_model import EvalRun

_CAUSE = {"rate_limit": "rate limit", "infrastructure": "infrastructure"}


def execution_line(execution: ExecutionRecord) -> str:
    """``executor ray, concurrency 4 per worker, 3 workers``."""
    workers = len(execution.workers)
    noun = "worker" if workers == 1 else "workers"
    return f"executor {execution.executor}, concurrency {execution.concurrency} per worker, {workers} {noun}"


def retry_summary(execution: ExecutionRecord) -> str:
    """``3 plays retried (2 rate limit, 1 infrastructure); 1 given up`` or ``no play was retried``."""
    retries = execution.retries
    if not retries:
        return "no play was retried"
    causes = Counter(_CAUSE.get(r.cause, r.cause) for r in retries)
    words = ", ".join(f"{count} {cause}" for cause, count in sorted(causes.items()))
    given_up = sum(r.given_up for r in retries)
    noun = "play" if len(retries) == 1 else "plays"
    return f"{len(retries)} {noun} retried ({words})" + (
        f"; {given_up} given up (recorded as errors)" if given_up else ""
    )


def concurrency_lines(execution: ExecutionRecord) -> list[tuple[str, str]]:
    """Per worker, its limit over time: ``4 (start) → 2 at 3.1 s (rate limit) → 3 at 9.0 s (clean cases)``."""
    per_worker: dict[str, list[str]] = {}
    for change in sorted(execution.concurrency_history, key=lambda c: c.at_s):
        steps = per_worker.setdefault(change.worker, [])
        when = "" if change.cause == "start" else f" at {change.at_s:.2f} s"
        steps.append(f"{change.limit}{when} ({change.cause})")
    return [(worker, " → ".join(steps)) for worker, steps in per_worker.items()]


def concurrency_changed(execution: ExecutionRecord) -> bool:
    """Whether any worker's limit moved after its start."""
    return any(change.cause != "start" for change in execution.concurrency_history)


def shard_line(run: EvalRun) -> str | None:
    """``shard 2/3 of the set``, with the fingerprints it shares with the other shards."""
    if run.shard is None:
        return None
    return f"shard {run.shard.label()} of the set" + _fingerprint_words(run)


def merge_line(run: EvalRun) -> str | None:
    """``merged from shards 1, 2, 3 of 3 (complete)``, or what an incomplete merge is missing."""
    merge = run.merge
    if merge is None:
        return None
    shards = ", ".join(str(index) for index in merge.shards) or "none"
    words = f"merged from shards {shards} of {merge.shard_count}"
    if merge.complete:
        return words + " (complete)" + _fingerprint_words(run)
    missing = []
    if merge.missing_shards:
        missing.append("shards " + ", ".join(str(i) for i in merge.missing_shards))
    if merge.missing_conversations:
        missing.append("conversations " + ", ".join(str(i) for i in merge.missing_conversations))
    return words + " (incomplete; missing: " + ("; ".join(missing) or "unknown") + ")" + _fingerprint_words(run)


def _fingerprint_words(run: EvalRun) -> str:
    prints = run.fingerprints
    if prints is None:
        return ""
    named = (("test set", prints.test_set), ("agent", prints.agent), ("graders", prints.graders))
    known = [f"{name} {value.removeprefix('sha256:')[:12]}" for name, value in named if value]
    return "; fingerprints: " + ", ".join(known) if known else ""


def retry_notes(run: EvalRun) -> list[str]:
    """The summary's lines on plays retried and limits lowered; none when nothing was retried or lowered.

    A run that slowed down for rate limits or lost a worker says so where people look first (the
    terminal, the CI step summary), not only in the HTML report: it explains a long run.
    """
    execution = run.execution
    if execution is None or not (execution.retries or concurrency_changed(execution)):
        return []
    lines = [retry_summary(execution)]
    changed = {change.worker for change in execution.concurrency_history if change.cause != "start"}
    lines += [
        f"concurrency of {worker}: {steps}" for worker, steps in concurrency_lines(execution) if worker in changed
    ]
    return lines


def node_key(played_on: Any) -> str | None:
    """What tells nodes apart in a case's ``played_on``: the node id, else its address, else its host."""
    if not isinstance(played_on, dict):
        return None
    for key in ("node_id", "node_address", "hostname"):
        if played_on.get(key):
            return str(played_on[key])
    return None


def shows_nodes(execution: ExecutionRecord | None, nodes: set[str]) -> bool:
    """Whether the run names the node of each case: it ran on Ray, or its cases ran on more than one node."""
    return len(nodes) > 1 or (execution is not None and "ray" in execution.executor)


__all__ = [
    "concurrency_changed",
    "concurrency_lines",
    "execution_line",
    "merge_line",
    "node_key",
    "retry_notes",
    "retry_summary",
    "shard_line",
    "shows_nodes",
]
