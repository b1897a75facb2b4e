"""Benchmark: per-eval time of run_copilot against the plain SDK loop and a fresh runtime per eval.

Side by side in one process, N sequential 2-turn scripted evals each (a tool call, then an answer),
in alternating blocks of ten so that the machine's drift hits both alike:
  - ours:   run_copilot on the pooled runtime (the evidence is complete when it returns; the
            session is closed afterwards, off the critical path),
  - plain:  the bare SDK on one started client: create_session, send, wait for idle, disconnect
            (no evidence, no limits, no cleanup of the session's files); its tool call must
            succeed as ours does, so the file it creates is removed between evals, untimed
            (left there, the call fails with "Path already exists" and skips the permission
            request and the write: about 7 ms less work than an eval of ours),
  - fresh:  run_copilot with a new runtime process started and stopped for every eval.
Targets: ours <= plain (ratio <= 1.0) and fresh / ours >= 5. Also prints where the time goes, and
CPU seconds beside wall time (Linux: /proc): the runtime's per eval, ours and the plain loop's, and
our Python process's; CPU is far less moved by the machine's load than wall time.
Absolute figures depend on the machine's load; the ratios are measured in the same run.

``--audit K`` first plays K more evals with the request audit on and prints what the model was
sent (each request's instructions_sha256, tool names and message count) and one digest of it all:
a change to how the runtime is run must leave that digest as it was (docs/cost.md). The
per-run names the runtime writes into the system prompt (the session folder: the run's own
COPILOT_HOME and session id; the working directory) are pinned for those evals only, so the
digest is the same eval after eval and run after run.

    python benchmarks/pooled_vs_fresh.py [N] [--audit K]
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.runtime.process.client_factory import start_client
from copilot_eval.runtime.process.locate import locate_runtime
from copilot_eval.runtime.process.pool import RuntimePool
from copilot_eval.runtime.sdk_internals import runtime_process

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


BLOCK = 10  # evals per block; blocks of ours and of the plain loop alternate
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int | None) -> float:
    """User plus system CPU of a process and its reaped children (the git it forks), from /proc; 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return 0.0
    return sum(int(value) for value in fields[11:15]) / TICKS


def pool_cpu(pool: RuntimePool) -> float:
    """CPU seconds of the pool's runtimes so far."""
    return sum(cpu_seconds(process.pid) for process in pool.processes())


class Plain:
    """The bare SDK loop on one started client: create, send, wait for idle, disconnect."""

    def __init__(self, model: ScriptedModel) -> None:
        self.model, self.workdir, self.client = model, tempfile.mkdtemp(), None
        self.parts: dict[str, list[float]] = {"total": [], "create": [], "send_to_idle": [], "disconnect": []}

    async def start(self) -> None:
        self.client = await start_client(
            locate_runtime().path, request_handler=self.model.endpoint(working_directory=self.workdir)
        )
        await self.one("warm up", record=False)  # the first session on a runtime is slower

    async def one(self, prompt: str, *, record: bool = True) -> None:
        from copilot import PermissionHandler

        idle = asyncio.Event()
        tool_results: list[bool] = []

        def on_event(event):
            if event.type.value == "tool.execution_complete":
                tool_results.append(bool(event.data.success))
            if event.type.value == "session.idle" and not event.agent_id:
                idle.set()

        t0 = time.perf_counter()
        session = await self.client.create_session(
            model=self.model.session_model,
            provider=self.model.provider_config(),
            working_directory=self.workdir,
            on_permission_request=PermissionHandler.approve_all,
            on_event=on_event,
        )
        t1 = time.perf_counter()
        await session.send(prompt)
        await asyncio.wait_for(idle.wait(), 60)
        t2 = time.perf_counter()
        await session.disconnect()
        t3 = time.perf_counter()
        assert tool_results == [True], f"the plain loop's tool call did not succeed: {tool_results}"
        os.remove(os.path.join(self.workdir, "out.txt"))  # untimed: the next eval creates it again
        if record:
            for name, value in (
                ("total", t3 - t0),
                ("create", t1 - t0),
                ("send_to_idle", t2 - t1),
                ("disconnect", t3 - t2),
            ):
                self.parts[name].append(value)


class Cpu:
    """CPU seconds per eval, block by block: our runtime, the plain loop's runtime, our Python process."""

    def __init__(self) -> None:
        self.ours_runtime: list[float] = []
        self.plain_runtime: list[float] = []
        self.ours_python: list[float] = []


async def side_by_side(
    agent: CopilotEval, model: ScriptedModel, runs: int
) -> tuple[list[float], list[float], Plain, Cpu]:
    """Blocks of BLOCK evals, ours and the plain loop in turn, each on its own warm runtime, so
    the machine's drift over the minute hits both alike. Ours is measured the way a caller sees
    it: each eval overlaps the previous one's cleanup (drained only at the end of a block)."""
    pool = RuntimePool()
    plain = Plain(model)
    walls, durations, cpu = [], [], Cpu()
    try:
        await run_copilot(agent, "warm up", pool=pool)
        await pool.drain_cleanups()
        await plain.start()
        plain_pid = getattr(runtime_process(plain.client), "pid", None)
        for block in range(max(1, runs // BLOCK)):
            runtime_before, python_before = pool_cpu(pool), time.process_time()
            for i in range(BLOCK):
                started = time.perf_counter()
                result = await run_copilot(agent, f"run {block}.{i}", pool=pool)
                walls.append(time.perf_counter() - started)
                durations.append((result.duration_ms or 0) / 1000)
                assert result.success, result.error
            await pool.drain_cleanups()
            cpu.ours_runtime.append((pool_cpu(pool) - runtime_before) / BLOCK)
            cpu.ours_python.append((time.process_time() - python_before) / BLOCK)
            plain_before = cpu_seconds(plain_pid)
            for i in range(BLOCK):
                await plain.one(f"run {block}.{i}")
            cpu.plain_runtime.append((cpu_seconds(plain_pid) - plain_before) / BLOCK)
    finally:
        await pool.close()
        if plain.client is not None:
            await plain.client.stop()
    return walls, durations, plain, cpu


async def audit_digest(model: ScriptedModel, evals: int) -> tuple[str, list[tuple[str, tuple[str, ...], int | None]]]:
    """What the model was sent over ``evals`` evals (audit on, the session folder pinned), and its digest."""
    import copilot_eval.runtime.session.session_run as session_run

    # Fixed folders, not mkdtemp's random names: both paths are in the system prompt, and the
    # digest must compare across runs of this script (before a change and after it).
    root = Path(tempfile.gettempdir()) / "copilot-eval-audit"
    shutil.rmtree(root, ignore_errors=True)
    home, workdir = root / "home", root / "wd"
    home.mkdir(parents=True)
    workdir.mkdir()
    pinned_home, pinned_uuid = session_run.new_copilot_home, session_run.uuid

    def fixed_home() -> Path:
        (home / "h").mkdir(exist_ok=True)
        return home / "h"

    session_run.new_copilot_home = fixed_home  # type: ignore[assignment]
    session_run.uuid = type("PinnedUuid", (), {"uuid4": staticmethod(lambda: uuid.UUID(int=35))})  # type: ignore[assignment]
    pool = RuntimePool()
    agent = CopilotEval(model=model, timeout_s=60, audit_requests=True, working_directory=workdir)
    seen: list[tuple[str, tuple[str, ...], int | None]] = []
    try:
        for i in range(evals + 1):  # the first is the runtime's warm-up: not in the digest
            (workdir / "out.txt").unlink(missing_ok=True)
            result = await run_copilot(agent, f"run {i}", pool=pool)
            assert result.success, result.error
            await pool.drain_cleanups()  # the pinned folder is removed before the next eval uses it
            if i:
                seen += [
                    (r.instructions_sha256, tuple(r.tool_names), r.message_count) for r in result.request_audit or []
                ]
    finally:
        session_run.new_copilot_home, session_run.uuid = pinned_home, pinned_uuid  # type: ignore[assignment]
        await pool.close()
    return hashlib.sha256(json.dumps(seen).encode()).hexdigest()[:16], seen


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


def main() -> None:
    args = sys.argv[1:]
    audit = int(args.pop(args.index("--audit") + 1)) if "--audit" in args else 0
    if "--audit" in args:
        args.remove("--audit")
    runs = int(args[0]) if args else 60
    model = ScriptedModel.from_dict(SCRIPT)
    if audit:
        digest, seen = asyncio.run(audit_digest(model, audit))
        distinct = sorted({(sha[:12], len(tools), count) for sha, tools, count in seen})
        print(f"what the model was sent over {audit} evals ({len(seen)} requests): digest {digest}")
        print(f"  distinct (instructions_sha256, tools offered, message count): {distinct}")
        print(f"  tools: {', '.join(seen[0][1]) if seen else 'none'}")
    agent = CopilotEval(model=model, timeout_s=60)
    walls, durations, plain_loop, cpu = asyncio.run(side_by_side(agent, model, runs))
    plain = plain_loop.parts
    fresh_times = asyncio.run(fresh(agent, max(5, runs // 5)))
    median = statistics.median
    o, p, f = median(walls), median(plain["total"]), median(fresh_times)
    print(
        f"{len(walls)} sequential 2-turn scripted evals each, in alternating blocks of {BLOCK}; "
        f"median seconds per eval ({len(fresh_times)} for fresh)"
    )
    print(f"  ours (run_copilot, pooled)       {o:.3f}")
    print(
        f"  plain SDK loop on one client     {p:.3f}   (create {median(plain['create']):.3f}, "
        f"send-to-idle {median(plain['send_to_idle']):.3f}, disconnect {median(plain['disconnect']):.3f})"
    )
    print(f"  fresh runtime per eval           {f:.3f}")
    print(f"  ours / plain SDK                 {o / p:.2f}x  (target <= 1.00)")
    print(f"  fresh / ours                     {f / o:.1f}x   (target >= 5)")
    print(
        f"CPU seconds per eval (medians of blocks of {BLOCK}; load average {os.getloadavg()[0]:.1f}): "
        f"runtime, ours {median(cpu.ours_runtime):.3f}, plain loop {median(cpu.plain_runtime):.3f}; "
        f"our Python process {median(cpu.ours_python):.3f}"
    )
    print("where our time goes (medians):")
    print(
        f"  call to evidence (duration_ms)   {median(durations):.3f}  "
        f"(the runtime's create + send-to-idle alone: {median(plain['create']) + median(plain['send_to_idle']):.3f})"
    )
    print(
        f"  evidence to return               {median(w - d for w, d in zip(walls, durations, strict=True)):.3f}  "
        "(building the result, crossing to the caller's loop)"
    )
    print("  disconnect, folder removal: after the return, overlapping the next eval. What makes our")
    print("  call-to-evidence longer than the plain loop's create + send is the runtime's, on its one thread:")
    print(
        f"  the previous eval's disconnect ({median(plain['disconnect']):.3f} s in the plain loop) while our next session is"
    )
    print("  created, and a new working directory per eval (the plain loop reuses one), for which the runtime")
    print("  forks `git rev-parse` three times instead of once")


if __name__ == "__main__":
    main()
