"""Benchmark: wall time of a single-turn set at --concurrency 1, 4 and 8 (scripted agent).

Prints each wall time, the speed-up over concurrency 1 (target with `--cases 60 --delay 1.0`:
concurrency 8 at least 7x faster than concurrency 1), and where the time goes: the part of the
wall time that is model latency, CPU seconds per case in Python and in the runtime processes,
and the wait per case that is neither.
Run: python benchmarks/eval_set_concurrency.py [--cases 60] [--delay 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time
from pathlib import Path

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.grading import ExactMatch
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from copilot_eval.runtime.process.pool import shared_pool
from copilot_eval.runtime.session.runner import run_copilot

TICKS = os.sysconf("SC_CLK_TCK")


def agent(delay: float) -> CopilotEval:
    """A scripted agent answering 'answer to: <prompt>' after ``delay`` seconds of model latency."""
    turn = {"text": "answer to: {prompt}", **({"delay_s": delay} if delay else {})}
    return CopilotEval(name="bench", timeout_s=120, model=ScriptedModel.from_dict({"rules": [{"turns": [turn]}]}))


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its reaped children, from /proc (0 when unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / TICKS


def _runtime_cpu() -> float:
    return sum(_cpu_seconds(p.pid) for p in shared_pool().processes())


async def main(cases: int, delay: float) -> None:
    """Time one single run, then the whole set at each concurrency."""
    bot = agent(delay)
    test_set = EvalTestSet(
        name="bench",
        data_type=EvalDataType.SINGLE_TURN,
        cases=[
            EvalTestCase(conversation_number=n, question=f"q{n}", response=f"answer to: q{n}")
            for n in range(1, cases + 1)
        ],
    )
    await run_copilot(bot, "warm-up")  # start the pooled runtime outside the timings
    singles = []
    for n in range(5):
        started = time.monotonic()
        await run_copilot(bot, f"single {n}")
        singles.append(time.monotonic() - started)
    single = sorted(singles)[len(singles) // 2]
    print(
        f"single run (median of 5): {single:.3f} s; model delay {delay:g} s; {cases} cases; "
        f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}"
    )
    walls: dict[int, float] = {}
    cpu_per_case: dict[int, float] = {}
    for concurrency in (1, 4, 8):
        python_cpu, runtime_cpu = time.process_time(), _runtime_cpu()
        started = time.monotonic()
        run = await run_eval_set(test_set, bot, RunSettings.of(graders=[ExactMatch()], concurrency=concurrency))
        wall = time.monotonic() - started
        python_cpu, runtime_cpu = time.process_time() - python_cpu, _runtime_cpu() - runtime_cpu
        walls[concurrency] = wall
        cpu_per_case[concurrency] = (python_cpu + runtime_cpu) / cases
        latency = math.ceil(cases / concurrency) * delay  # the wall time if only the model took time
        other = (wall - latency) * concurrency / cases
        print(
            f"concurrency {concurrency}: {wall:6.2f} s  speed-up {walls[1] / wall:5.2f}x  "
            f"({run.passed} passed, {run.errored} errors, {len(shared_pool().processes())} runtimes)"
        )
        print(
            f"    where it goes: model latency {latency:.1f} s of the wall; per case CPU {python_cpu / cases * 1000:.0f} ms "
            f"in Python, {runtime_cpu / cases * 1000:.0f} ms in the runtimes; per case beyond model latency "
            f"{other * 1000:.0f} ms per concurrent slot"
        )
    print(
        f"concurrency 8 vs 1: {walls[1] / walls[8]:.2f}x (target >= 7x with --cases 60 --delay 1.0); "
        f"concurrency 4 vs 1: {walls[1] / walls[4]:.2f}x"
    )
    # Each case needs its CPU (mostly the runtime's, on one JavaScript thread per runtime) once per
    # model wait: eight cases in flight ask for this many cores, and past about 70 % of the cores
    # the cases queue for a runtime thread instead of overlapping their model waits.
    cores = os.cpu_count() or 1
    cpu = cpu_per_case[8]
    demand = 8 * cpu / (delay + cpu) if delay else float("inf")
    print(
        f"why not 8x: at concurrency 8 each case needs {cpu * 1000:.0f} ms of CPU per {delay:g} s of model latency, "
        f"so the cases in flight ask for {demand:.1f} of {cores} cores; the whole set's CPU alone takes "
        f"{cpu * cases / cores:.1f} s of the {walls[8]:.1f} s wall (model latency alone {math.ceil(cases / 8) * delay:.0f} s)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=60)
    parser.add_argument("--delay", type=float, default=1.0, help="scripted model latency per answer (s)")
    args = parser.parse_args()
    asyncio.run(main(args.cases, args.delay))
