"""Benchmark: per-eval time of run_copilot against the plain SDK loop and a fresh runtime per eval.

Side by side in one process, N sequential 2-turn scripted evals (a tool call, then an answer):
  - ours:   run_copilot on the pooled runtime (the evidence is complete when it returns; the
            session is closed afterwards, off the critical path),
  - plain:  the bare SDK on one started client: create_session, send, wait for idle, disconnect
            (no evidence, no limits, no cleanup of the session's files),
  - fresh:  run_copilot with a new runtime process started and stopped for every eval.
Targets: ours <= plain (ratio <= 1.0) and fresh / ours >= 5. Also prints where the time goes.
Absolute figures depend on the machine's load; the ratios are measured in the same run.

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


async def ours(agent: CopilotEval, runs: int) -> tuple[list[float], list[float]]:
    """Wall time per eval and the run's own duration_ms (call to evidence) per eval."""
    pool = RuntimePool()
    await run_copilot(agent, "warm up", pool=pool)  # the first session on a runtime is slower
    walls, durations = [], []
    try:
        for i in range(runs):
            started = time.perf_counter()
            result = await run_copilot(agent, f"run {i}", pool=pool)
            walls.append(time.perf_counter() - started)
            durations.append((result.duration_ms or 0) / 1000)
            assert result.success, result.error
    finally:
        await pool.close()
    return walls, durations


async def fresh(agent: CopilotEval, runs: int) -> list[float]:
    """Wall time per eval with a runtime started and stopped for each."""
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


async def plain_sdk(model: ScriptedModel, runs: int) -> dict[str, list[float]]:
    """The bare SDK loop on one client: create, send, wait for idle, disconnect; each part timed."""
    from copilot import PermissionHandler

    workdir = tempfile.mkdtemp()
    client = await start_client(locate_runtime().path, request_handler=model.endpoint(working_directory=workdir))
    parts: dict[str, list[float]] = {"total": [], "create": [], "send_to_idle": [], "disconnect": []}
    try:
        for i in range(runs + 1):  # the first session is a warm-up
            idle = asyncio.Event()

            def on_event(event, idle=idle):  # noqa: ANN001
                if event.type.value == "session.idle" and not event.agent_id:
                    idle.set()

            t0 = time.perf_counter()
            session = await client.create_session(
                model=model.session_model, provider=model.provider_config(), working_directory=workdir,
                on_permission_request=PermissionHandler.approve_all, on_event=on_event)
            t1 = time.perf_counter()
            await session.send(f"run {i}")
            await asyncio.wait_for(idle.wait(), 60)
            t2 = time.perf_counter()
            await session.disconnect()
            t3 = time.perf_counter()
            if i > 0:
                for name, value in (("total", t3 - t0), ("create", t1 - t0), ("send_to_idle", t2 - t1),
                                    ("disconnect", t3 - t2)):
                    parts[name].append(value)
    finally:
        await client.stop()
    return parts


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    model = ScriptedModel.from_dict(SCRIPT)
    agent = CopilotEval(model=model, timeout_s=60)
    walls, durations = asyncio.run(ours(agent, runs))
    plain = asyncio.run(plain_sdk(model, runs))
    fresh_times = asyncio.run(fresh(agent, max(5, runs // 5)))
    median = statistics.median
    o, p, f = median(walls), median(plain["total"]), median(fresh_times)
    print(f"{runs} sequential 2-turn scripted evals, median seconds per eval ({len(fresh_times)} for fresh)")
    print(f"  ours (run_copilot, pooled)       {o:.3f}")
    print(f"  plain SDK loop on one client     {p:.3f}   (create {median(plain['create']):.3f}, "
          f"send-to-idle {median(plain['send_to_idle']):.3f}, disconnect {median(plain['disconnect']):.3f})")
    print(f"  fresh runtime per eval           {f:.3f}")
    print(f"  ours / plain SDK                 {o / p:.2f}x  (target <= 1.00)")
    print(f"  fresh / ours                     {f / o:.1f}x   (target >= 5)")
    print("where our time goes (medians):")
    print(f"  call to evidence (duration_ms)   {median(durations):.3f}  "
          f"(the runtime's create + send-to-idle alone: {median(plain['create']) + median(plain['send_to_idle']):.3f})")
    print(f"  evidence to return               {median(w - d for w, d in zip(walls, durations, strict=True)):.3f}  "
          "(building the result, crossing to the caller's loop)")
    print("  disconnect, delete, folder removal: after the return, overlapping the next eval")


if __name__ == "__main__":
    main()
