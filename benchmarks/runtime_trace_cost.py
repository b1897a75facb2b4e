"""Benchmark: what the runtime's own trace costs a run, and where a run's time goes by phase.

Side by side in one process, N sequential 2-turn scripted runs (a tool call, then an answer) on
two pooled runtimes, in alternating blocks of ten so that the machine's drift hits both alike:
  - trace on:  the runtime's file exporter on (the default); each run waits for its session's
               spans, reads them, splits them off the shared file, cross-checks them against
               capture and reads the time by phase;
  - trace off: the same runtime started with COPILOT_EVAL_RUNTIME_TRACE=off (no spans, no check).
Target: on / off <= 1.05 (the trace adds at most 5 % to a run). Wall time swings with the machine's
load, so the runtime's own CPU time per run is printed too (Linux: /proc), on and off: what the
runtime spends making its spans. Then the medians per phase of the traced runs (the breakdown
issue 35 starts from), and the runtime's own steps that took longest. The ratios are measured in
the same run.

    python benchmarks/runtime_trace_cost.py [N]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from copilot_eval import CopilotEval, CopilotResult, ScriptedModel, run_copilot
from copilot_eval.evidence.phase_times import PHASES
from copilot_eval.runtime.process.pool import RuntimePool
from copilot_eval.runtime.process.trace_file import TRACE_ENV

SCRIPT = {
    "rules": [
        {
            "turns": [
                {
                    "tool_calls": [
                        {"name": "create", "arguments": {"path": "{working_directory}/out.txt", "file_text": "x"}}
                    ]
                },
                {"text": "done"},
            ]
        }
    ]
}
BLOCK = 10


async def _started(trace: bool) -> RuntimePool:
    """A pool whose one runtime was started with the exporter on or off (read when it starts)."""
    os.environ[TRACE_ENV] = "on" if trace else "off"
    pool = RuntimePool(max_runtimes=1)
    warm = await run_copilot(CopilotEval(model=ScriptedModel.from_dict(SCRIPT), timeout_s=60), "warm up", pool=pool)
    assert warm.success and (warm.runtime_trace is not None) == trace, warm.error
    os.environ.pop(TRACE_ENV, None)
    return pool


def _cpu_s(pool: RuntimePool) -> float | None:
    """User plus system CPU seconds of the pool's runtime process so far; ``None`` off Linux."""
    try:
        (process,) = pool.processes()
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, ValueError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _block(pool: RuntimePool, times: list[float], results: list[CopilotResult], cpu: list[float]) -> None:
    agent = CopilotEval(model=ScriptedModel.from_dict(SCRIPT), timeout_s=60)
    before = _cpu_s(pool)
    for _ in range(BLOCK):
        started = time.perf_counter()
        result = await run_copilot(agent, "go", pool=pool)
        times.append((time.perf_counter() - started) * 1000)
        assert result.success, result.error
        results.append(result)
    await pool.drain_cleanups()  # the closing of the block's sessions is the runtime's work too
    after = _cpu_s(pool)
    if before is not None and after is not None:
        cpu.append((after - before) * 1000 / BLOCK)


async def main(n: int) -> None:
    on_pool, off_pool = await _started(True), await _started(False)
    on, off, traced, plain = [], [], [], []
    cpu_on: list[float] = []
    cpu_off: list[float] = []
    try:
        for _ in range(max(1, n // BLOCK)):
            await _block(on_pool, on, traced, cpu_on)
            await _block(off_pool, off, plain, cpu_off)
    finally:
        await on_pool.close()
        await off_pool.close()
    med_on, med_off = statistics.median(on), statistics.median(off)
    print(f"{len(on)} runs each, median ms: trace on {med_on:.1f}, trace off {med_off:.1f}")
    print(
        f"on / off = {med_on / med_off:.3f} (target <= 1.05); means {statistics.mean(on):.1f} / {statistics.mean(off):.1f}"
    )
    if cpu_on and cpu_off:
        a, b = statistics.mean(cpu_on), statistics.mean(cpu_off)
        print(f"runtime CPU per run: trace on {a:.1f} ms, off {b:.1f} ms, on / off = {a / b:.3f}")
    disagreements = sum(1 for r in traced for e in r.capture_errors if e.kind.startswith("trace_"))
    spans = statistics.median(len(r.runtime_trace.spans) for r in traced if r.runtime_trace)
    print(f"cross-check disagreements: {disagreements}; spans per session (median): {spans:.0f}")
    print("time by phase, median ms over the traced runs:")
    for phase in PHASES:
        known = [v for r in traced if r.phase_times and (v := getattr(r.phase_times, f"{phase}_ms")) is not None]
        print(f"  {phase:15} {statistics.median(known):8.1f}" if known else f"  {phase:15}  unknown")
    steps: dict[str, list[float]] = {}
    for result in traced:
        for name, ms in (result.phase_times.runtime_phases if result.phase_times else {}).items():
            steps.setdefault(name, []).append(ms)
    longest = sorted(((statistics.median(v), k) for k, v in steps.items()), reverse=True)[:8]
    print("the runtime's longest steps (session.timing.*, median ms): " + ", ".join(f"{k} {v:.0f}" for v, k in longest))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 60))
