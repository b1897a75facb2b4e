"""Soak benchmark: thousands of runs in one process stay flat in memory, handles and speed.

N sequential 2-turn scripted runs (a Python tool call, then an answer; default 10,000), then a
concurrent phase, on one pool with the default recycling (env COPILOT_EVAL_RECYCLE_SESSIONS,
COPILOT_EVAL_RECYCLE_RSS_MB). Every --every runs it prints open file descriptors, threads,
Python RSS, the runtimes' RSS, live runtimes, the SDK clients' session-map size, the median run
time of the last window, and the same median for a control: a fresh Python process on a fresh
runtime doing 20 of the same runs at that moment (the machine's own speed varies too much for raw
medians to be compared across an hour). At the end it compares the last window with the first
(target: runtime RSS and the median relative to the control within 10 %, fds and threads flat)
and checks that no runtime is left.

    python benchmarks/soak.py [--runs 10000] [--every 500] [--concurrent 1000] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.runtime.process.pool import RuntimePool
from copilot_eval.runtime.process.recycle import process_rss_mb

SCRIPT = {
    "rules": [
        {
            "turns": [
                {"tool_calls": [{"name": "lookup", "arguments": {"city": "Paris"}}]},
                {"text": "sunny"},
            ]
        }
    ]
}


def lookup(city: str) -> str:
    """Look up the weather in a city."""
    return f"sunny in {city}"


CONTROL_RUNS = 20


def _agent() -> CopilotEval:
    """The soak's agent (the control process builds the same one)."""
    return CopilotEval(
        model=ScriptedModel.from_dict(SCRIPT),
        tools=(lookup,),
        timeout_s=60,
        working_directory=tempfile.mkdtemp(prefix="copilot-eval-soak-"),
    )


async def _control_runs(runs: int) -> None:
    """The control (run in a fresh Python process): `runs` of the same runs on a fresh runtime;
    prints their median."""
    agent = _agent()
    pool = RuntimePool()
    try:
        await run_copilot(agent, "warm up", pool=pool)
        times = []
        for n in range(runs):
            t0 = time.perf_counter()
            await run_copilot(agent, f"control {n}", pool=pool)
            times.append(time.perf_counter() - t0)
    finally:
        await pool.close()
    print(statistics.median(times))


async def _fresh_median(runs: int) -> float:
    """Median run time of a brand-new Python process and runtime doing the same runs right now.

    The machine's speed varies with what else runs on it (here by 50 % within minutes); the soak's
    median divided by this one says whether a long-lived process got slower, whatever the machine did.
    """
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--control", str(runs), stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    return float(out.decode().strip().splitlines()[-1])


def _fd_kinds() -> Counter[str]:
    """This process's open file descriptors by kind (pipe, socket, anon_inode, file, ...), so a
    change between two samples says what was left open, not only that something was."""
    kinds: Counter[str] = Counter()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # the listing's own descriptor, already closed
        kind = target.split(":", 1)[0] if ":" in target and not target.startswith("/") else "file"
        kinds[kind] += 1
    return kinds


def _kinds_text(kinds: Counter[str]) -> str:
    return ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))


async def _sample(pool: RuntimePool, done: int, window: list[float], started: float) -> dict[str, float]:
    await pool.drain_cleanups()
    stats = pool.stats()
    kinds = _fd_kinds()
    fresh = await _fresh_median(CONTROL_RUNS)
    median = statistics.median(window) if window else 0.0
    row = {
        "runs": done,
        "fds": sum(kinds.values()),
        "fd_kinds": kinds,
        "threads": threading.active_count(),
        "python_rss_mb": process_rss_mb(os.getpid()) or 0.0,
        "runtime_rss_mb": sum(r for r in stats["runtime_rss_mb"] if r is not None),
        "runtimes": stats["live_runtimes"],
        "session_map": stats["session_map"],
        "median_s": median,
        "fresh_median_s": fresh,
        "vs_fresh": median / fresh if fresh else float("nan"),
        "recycled": stats["recycled"],
        "elapsed_s": time.monotonic() - started,
    }
    print(
        f"{row['runs']:>6} runs | fds {row['fds']:>4} | threads {row['threads']:>3} | "
        f"python {row['python_rss_mb']:6.1f} MB | runtime {row['runtime_rss_mb']:6.1f} MB | "
        f"runtimes {row['runtimes']} | session map {row['session_map']:>3} | "
        f"median {row['median_s']:.3f} s (fresh process {fresh:.3f} s: {row['vs_fresh']:.2f}x) | "
        f"recycled {row['recycled']} | {row['elapsed_s']:.0f} s",
        flush=True,
    )
    return row


async def soak(runs: int, every: int, concurrent: int, concurrency: int) -> None:
    """Run both phases and print the figures."""
    agent = _agent()
    pool = RuntimePool()
    print(
        f"recycling: {pool.recycle}; sequential runs: {runs}; concurrent runs: {concurrent} "
        f"at concurrency {concurrency}",
        flush=True,
    )
    await run_copilot(agent, "warm up", pool=pool)
    started = time.monotonic()
    rows, window, failures = [], [], 0
    for n in range(1, runs + 1):
        t0 = time.perf_counter()
        result = await run_copilot(agent, f"run {n}", pool=pool)
        window.append(time.perf_counter() - t0)
        failures += not result.success
        if n % every == 0 or n == runs:
            rows.append(await _sample(pool, n, window, started))
            window = []
    print(f"sequential failures: {failures}", flush=True)

    semaphore = asyncio.Semaphore(concurrency)
    times: list[float] = []

    async def one(n: int) -> bool:
        async with semaphore:
            t0 = time.perf_counter()
            result = await run_copilot(agent, f"concurrent {n}", pool=pool)
            times.append(time.perf_counter() - t0)
            return result.success

    if concurrent:
        t0 = time.monotonic()
        outcomes = await asyncio.gather(*(one(n) for n in range(concurrent)))
        wall = time.monotonic() - t0
        print(
            f"concurrent phase: {concurrent} runs at concurrency {concurrency} in {wall:.1f} s "
            f"({concurrent / wall:.1f} runs/s), failures {outcomes.count(False)}",
            flush=True,
        )
        await _sample(pool, runs + concurrent, times, started)
    processes = pool.processes()
    await pool.close()
    left = [p.pid for p in processes if p.poll() is None]
    for _ in range(50):  # a kill under heavy load may take a moment to be reaped
        if not left:
            break
        await asyncio.sleep(0.1)
        left = [p.pid for p in processes if p.poll() is None]
    print(f"runtimes left after close: {left or 'none'}", flush=True)
    if len(rows) >= 2:
        first, last = rows[0], rows[-1]
        for key in ("runtime_rss_mb", "vs_fresh", "median_s", "python_rss_mb"):
            change = (last[key] / first[key] - 1) * 100 if first[key] else float("nan")
            print(
                f"{key}: {first[key]:.3f} at {first['runs']} runs -> {last[key]:.3f} at {last['runs']} runs "
                f"({change:+.1f} %{'; target within 10 %' if key in ('runtime_rss_mb', 'vs_fresh') else ''})"
            )
        print(
            f"fds: {first['fds']} -> {last['fds']} ({_kinds_text(first['fd_kinds'])} -> {_kinds_text(last['fd_kinds'])}); "
            f"threads: {first['threads']} -> {last['threads']} (target flat)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--concurrent", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--control", type=int, default=None, help=argparse.SUPPRESS)  # the fresh-process control
    args = parser.parse_args()
    if args.control is not None:
        asyncio.run(_control_runs(args.control))
    else:
        asyncio.run(soak(args.runs, args.every, args.concurrent, args.concurrency))
