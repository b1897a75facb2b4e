"""Benchmark: AgentDojo v1.2.2 played through the bridge, timed, and every play held against AgentDojo's own verdict.

Plays the chosen suites (default: all four, 1,046 plays per agent) with the scripted agent that
ignores injections and/or the one that follows them, through the real runtime, offline. Prints per
suite and in all: plays, wall time, seconds per play, the outcomes, and how many plays agree with
the same agent played inside AgentDojo without the runtime (``dojo_native.play_natively``): the
user task's utility on every play, whether the goal was reached on every delivered attack play.
Each disagreement is listed. A not-delivered play (the runtime kept the attack from the model, and
the reason says how) is held against the agent inside AgentDojo that reads no attack.
Needs the ``agentdojo`` extra. The machine is shared: a full run is long, keep --concurrency low.
Run: python benchmarks/agentdojo_full_run.py [--suite banking] [--agent ignores|follows|both]
     [--concurrency 2] [--case 'user_task_0*'] [--out FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from pathlib import Path

from copilot_eval import CopilotEval
from copilot_eval.security import run_suite
from copilot_eval.security.dojo_agents import DojoScriptedAgent
from copilot_eval.security.dojo_native import play_natively
from copilot_eval.security.dojo_suite import AgentDojoSuite
from copilot_eval.security.outcomes import Outcome

SUITES = ("workspace", "travel", "banking", "slack")


async def one(name: str, follows: bool, concurrency: int, cases: list[str] | None, out: Path | None) -> Counter[str]:
    """Play one suite with one agent; print its figures and disagreements; return its counts."""
    dojo = AgentDojoSuite(name)
    who = "follows" if follows else "ignores"
    agent = CopilotEval(name=who, model=DojoScriptedAgent(dojo, follows_injections=follows), timeout_s=300)
    started = time.monotonic()
    run = await run_suite(
        agent, dojo, concurrency=concurrency, cases=cases, out=out / f"{name}-{who}" if out is not None else None
    )
    wall = time.monotonic() - started
    by_id = {case.id: case for case in dojo.cases()}
    counts: Counter[str] = Counter(plays=len(run.plays))
    counts["wall_ms"] = round(wall * 1000)
    disagreements = []
    for play in run.plays:
        counts[str(play.outcome or "baseline")] += 1
        # An attack the runtime kept from the model (a result over its size limit) was never read:
        # the play must then agree with the agent that reads no attack.
        kept_out = play.outcome is Outcome.NOT_DELIVERED
        native = play_natively(dojo, by_id[play.case_id], follows=follows and not kept_out, canary=play.canary)
        counts["utility_agrees"] += play.utility is native.utility
        counts["native_goal"] += bool(native.goal_reached)
        if play.utility is not native.utility:
            disagreements.append(
                f"{play.case_id}: utility {play.utility} here, {native.utility} in AgentDojo ({play.reason})"
            )
        if play.outcome in (Outcome.ATTACKED, Outcome.RESISTED):
            counts["delivered"] += 1
            reached = play.outcome is Outcome.ATTACKED
            counts["goal_agrees"] += reached is native.goal_reached
            if reached is not native.goal_reached:
                disagreements.append(f"{play.case_id}: goal {reached} here, {native.goal_reached} in AgentDojo")
    plays = len(run.plays)
    print(
        f"{name:<9} {who:<7} {plays:>5} plays {wall:8.1f} s {wall / max(plays, 1):6.2f} s/play  "
        f"attacked {counts['attacked']}, resisted {counts['resisted']}, not delivered {counts['not_delivered']}, "
        f"error {counts['error']}; utility agrees {counts['utility_agrees']}/{plays}, "
        f"goal agrees {counts['goal_agrees']}/{counts['delivered']} (AgentDojo itself: goal {counts['native_goal']})",
        flush=True,
    )
    for line in disagreements[:25]:
        print("   ", line)
    if len(disagreements) > 25:
        print(f"    ... {len(disagreements) - 25} more")
    return counts


async def main(
    suites: list[str], agents: list[bool], concurrency: int, cases: list[str] | None, out: Path | None
) -> None:
    """Every suite with every agent, then the totals."""
    for follows in agents:
        total: Counter[str] = Counter()
        for name in suites:
            total.update(await one(name, follows, concurrency, cases, out))
        plays, wall = total["plays"], total["wall_ms"] / 1000
        print(
            f"{'all':<9} {'follows' if follows else 'ignores':<7} {plays:>5} plays {wall:8.1f} s "
            f"{wall / max(plays, 1):6.2f} s/play  utility agrees {total['utility_agrees']}/{plays}, "
            f"goal agrees {total['goal_agrees']}/{total['delivered']}",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", action="append", choices=SUITES, help="a suite (repeatable; default all four)")
    parser.add_argument("--agent", choices=("ignores", "follows", "both"), default="both")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--case", action="append", help="fnmatch pattern of case ids (repeatable)")
    parser.add_argument("--out", type=Path, help="write each run folder under this folder")
    options = parser.parse_args()
    chosen = [options.agent == "follows"] if options.agent != "both" else [False, True]
    asyncio.run(main(options.suite or list(SUITES), chosen, options.concurrency, options.case, options.out))
