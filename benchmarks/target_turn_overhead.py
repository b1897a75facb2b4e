"""Benchmark: what a harness turn costs on each Copilot Studio transport, against the loopback fakes.

For an agent that answers after ``--delay`` seconds, prints the mean turn duration and its
overhead over that delay on Direct Line (REST polling: poll interval plus the quiet period that
ends a turn) and on the Agents SDK endpoint (the SSE stream ends the turn itself), then the wall
time of a 20-case set at concurrency 1 and 4 on each.
Run: python benchmarks/target_turn_overhead.py [--delay 0.5] [--quiet 1.0] [--poll 0.25]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.grading import ExactMatch
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from copilot_eval.targets import CopilotStudioTarget, DirectLineTarget, StudioAgent
from copilot_eval.testing import FakeAgent, FakeAgentsSdk, FakeDirectLine, LoopbackServer, answer


async def main(delay: float, quiet: float, poll: float) -> None:
    """Time single turns, then a 20-case set, on both transports."""
    script = FakeAgent(default=answer("An answer.", delay_s=delay))
    os.environ["BENCH_PP_TOKEN"] = "bench-token"
    dl_fake, sdk_fake = FakeDirectLine(script), FakeAgentsSdk(script, token="bench-token")
    async with LoopbackServer(dl_fake), LoopbackServer(sdk_fake):
        agents = {
            "directline": StudioAgent(
                target=DirectLineTarget(token_endpoint=dl_fake.token_endpoint, quiet_s=quiet, poll_interval_s=poll),
                name="dl",
                timeout_s=30,
            ),
            "agents-sdk": StudioAgent(
                target=CopilotStudioTarget(direct_connect_url=sdk_fake.direct_connect_url, token_env="BENCH_PP_TOKEN"),
                name="sdk",
                timeout_s=30,
            ),
        }
        test_set = EvalTestSet(
            name="bench",
            data_type=EvalDataType.SINGLE_TURN,
            cases=[EvalTestCase(conversation_number=n, question=f"q{n}", response="An answer.") for n in range(1, 21)],
        )
        for label, agent in agents.items():
            result = await agent.play([f"question {n}" for n in range(5)])
            turns = [t.duration_ms / 1000 for t in result.turns]
            mean = statistics.fmean(turns)
            print(
                f"{label:11s} turn {mean:.2f} s for a {delay:g} s answer: overhead {mean - delay:.2f} s "
                f"(first reply after {statistics.fmean(t.latency_ms for t in result.turns) / 1000:.2f} s)"
            )
            for concurrency in (1, 4):
                started = time.monotonic()
                run = await run_eval_set(
                    test_set, agent, RunSettings.of(graders=[ExactMatch()], concurrency=concurrency)
                )
                print(
                    f"{label:11s} 20 cases at concurrency {concurrency}: {time.monotonic() - started:.1f} s, "
                    f"{run.passed} passed"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--quiet", type=float, default=1.0)
    parser.add_argument("--poll", type=float, default=0.25)
    options = parser.parse_args()
    asyncio.run(main(options.delay, options.quiet, options.poll))
