"""Benchmark: wall time of a 100-case single-turn set at --concurrency 1, 4 and 8 (scripted agent).

Prints each wall time, its ratio to (cases x one single run) and the speed-up over concurrency 1.
Target on a 2-core machine: concurrency 8 at least 4x faster than concurrency 1.
Run: python benchmarks/eval_set_concurrency.py [--cases 100] [--delay 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.grading import ExactMatch
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs import run_eval_set
from copilot_eval.runtime.session.runner import run_copilot


def agent(delay: float) -> CopilotEval:
    """A scripted agent answering 'answer to: <prompt>' after ``delay`` seconds of model latency."""
    turn = {"text": "answer to: {prompt}", **({"delay_s": delay} if delay else {})}
    return CopilotEval(name="bench", timeout_s=60, model=ScriptedModel.from_dict({"rules": [{"turns": [turn]}]}))


async def main(cases: int, delay: float) -> None:
    """Time one single run, then the whole set at each concurrency."""
    bot = agent(delay)
    test_set = EvalTestSet(name="bench", data_type=EvalDataType.SINGLE_TURN, cases=[
        EvalTestCase(conversation_number=n, question=f"q{n}", response=f"answer to: q{n}") for n in range(1, cases + 1)])
    await run_copilot(bot, "warm-up")  # start the pooled runtime outside the timings
    singles = []
    for n in range(5):
        started = time.monotonic()
        await run_copilot(bot, f"single {n}")
        singles.append(time.monotonic() - started)
    single = sorted(singles)[len(singles) // 2]
    print(f"single run (median of 5): {single:.3f} s; model delay {delay:g} s; {cases} cases")
    base = None
    for concurrency in (1, 4, 8):
        started = time.monotonic()
        run = await run_eval_set(test_set, bot, graders=[ExactMatch()], concurrency=concurrency)
        wall = time.monotonic() - started
        base = base or wall
        print(f"concurrency {concurrency}: {wall:6.2f} s  ratio to cases x single {wall / (cases * single):.2f}  "
              f"speed-up {base / wall:.2f}x  ({run.passed} passed, {run.errored} errors)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--delay", type=float, default=0.0, help="scripted model latency per answer (s)")
    args = parser.parse_args()
    asyncio.run(main(args.cases, args.delay))
