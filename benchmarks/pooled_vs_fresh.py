"""Benchmark: per-run cost of run_copilot with the pooled runtime vs a fresh runtime per run.

Prints medians for N sequential 2-turn scripted runs (a tool call, then an answer):
  - pooled:  one runtime process for all runs (what the tool does),
  - fresh:   a new runtime process started and stopped for every run,
  - raw:     the runtime's own send-to-idle time for the same session, measured with the bare SDK
             (no copilot-eval around it), i.e. the floor a tool can reach.
Targets: pooled at least 5x faster than fresh; pooled within 2x of raw send-to-idle.

    python benchmarks/pooled_vs_fresh.py [N]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.runtime.process.client_factory import start_client
from copilot_eval.runtime.process.locate import locate_runtime
from copilot_eval.runtime.process.pool import RuntimePool

SCRIPT = {"rules": [{"turns": [
    {"tool_calls": [{"name": "create", "arguments": {"path": "{working_directory}/out.txt", "file_text": "x"}}]},
    {"text": "done"},
]}]}


async def pooled(agent: CopilotEval, runs: int) -> list[float]:
    pool = RuntimePool()
    await run_copilot(agent, "warm up", pool=pool)  # the first session on a runtime is slower
    times = []
    try:
        for i in range(runs):
            started = time.perf_counter()
            result = await run_copilot(agent, f"run {i}", pool=pool)
            times.append(time.perf_counter() - started)
            assert result.success, result.error
    finally:
        await pool.close()
    return times


async def fresh(agent: CopilotEval, runs: int) -> list[float]:
    times = []
    for i in range(runs):
        started = time.perf_counter()
        pool = RuntimePool()
        try:
            result = await run_copilot(agent, f"run {i}", pool=pool)
        finally:
            await pool.close()
        times.append(time.perf_counter() - started)
        assert result.success, result.error
    return times


async def raw_send_to_idle(model: ScriptedModel, runs: int) -> list[float]:
    """The bare SDK on one runtime: create a session, send, wait for idle; time send-to-idle."""
    from copilot import PermissionHandler

    workdir = tempfile.mkdtemp()
    client = await start_client(locate_runtime().path, request_handler=model.endpoint(working_directory=workdir))
    times = []
    try:
        for i in range(runs + 1):  # the first session is a warm-up
            idle = asyncio.Event()

            def on_event(event, idle=idle):  # noqa: ANN001
                if event.type.value == "session.idle" and not event.agent_id:
                    idle.set()

            session = await client.create_session(
                model=model.session_model, provider=model.provider_config(), working_directory=workdir,
                on_permission_request=PermissionHandler.approve_all, on_event=on_event)
            started = time.perf_counter()
            await session.send(f"run {i}")
            await asyncio.wait_for(idle.wait(), 30)
            if i > 0:
                times.append(time.perf_counter() - started)
            await session.disconnect()
    finally:
        await client.stop()
    return times


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    model = ScriptedModel.from_dict(SCRIPT)
    agent = CopilotEval(model=model, timeout_s=60)
    pooled_times = asyncio.run(pooled(agent, runs))
    fresh_times = asyncio.run(fresh(agent, runs))
    raw_times = asyncio.run(raw_send_to_idle(model, runs))
    p, f, r = (statistics.median(t) for t in (pooled_times, fresh_times, raw_times))
    print(f"{runs} sequential 2-turn scripted runs (median seconds per run)")
    print(f"  pooled runtime        {p:.3f}")
    print(f"  fresh runtime per run {f:.3f}")
    print(f"  raw SDK send-to-idle  {r:.3f}")
    print(f"  fresh / pooled        {f / p:.1f}x   (target >= 5x)")
    print(f"  pooled / raw          {p / r:.2f}x  (target <= 2x)")


if __name__ == "__main__":
    main()
