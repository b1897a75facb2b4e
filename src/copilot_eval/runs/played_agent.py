"""Whether several surfaces of one run play the same agent, or are an A/B comparison of different agents.

A second surface confirms a runtime limitation only when it plays the same agent (the same
``fingerprints.playedAgent``: the agent file apart from its ``target`` and ``name``, and every file
it names). A weaker agent's 0 % beside a stronger one's 100 % is no proof the platform failed: the
runs compare two agents, and the output says so. Unknown (a surface that was not an agent file)
is never the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.evalsets import EvalRun


def played_agent(run: EvalRun) -> str | None:
    """The run's played-agent fingerprint, or None when it was not recorded."""
    return run.fingerprints.played_agent if run.fingerprints is not None else None


def same_agent(first: EvalRun, second: EvalRun) -> bool:
    """Whether two runs played the same agent (both fingerprints known and equal)."""
    mine = played_agent(first)
    return mine is not None and mine == played_agent(second)


def ab_line(runs: Sequence[tuple[str | None, EvalRun]]) -> str | None:
    """The sentence saying several surfaces are an A/B comparison of different agents, or None (one agent)."""
    if len(runs) < 2:
        return None
    first = runs[0][1]
    if all(same_agent(first, run) for _, run in runs[1:]):
        return None
    labels = ", ".join(label or "?" for label, _ in runs)
    return (
        f"an A/B comparison: the surfaces ({labels}) play different agents (or one that is not an agent file), "
        "so none confirms another's runtime limitation"
    )


__all__ = ["ab_line", "played_agent", "same_agent"]
