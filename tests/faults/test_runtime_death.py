"""A runtime that dies is noticed within 2 s, named in the error, and replaced for later runs.

Also: a Python process that is SIGKILLed leaves no runtime process behind (stdio EOF ends it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.runtime.process.pool import RuntimePool
from tests.faults.fault_helpers import RUNTIME, process_gone

pytestmark = pytest.mark.runtime


def lookup(city: str) -> str:
    """Look up the weather in a city."""
    return f"sunny in {city}"


async def test_runtime_killed_mid_session_is_reported_within_2_s_and_replaced():
    pool = RuntimePool(runtime_path=RUNTIME)  # private: killing it must not disturb other tests
    killed: dict[str, float | int] = {}

    def kill_runtime(reason: str) -> str:
        """Kill the Copilot runtime serving this session (simulates a crash)."""
        process = pool.processes()[0]
        killed["pid"], killed["at"] = process.pid, time.monotonic()
        os.kill(process.pid, signal.SIGKILL)
        return "killed"

    model = ScriptedModel(
        [
            {
                "turns": [
                    {"tool_calls": [{"name": "lookup", "arguments": {"city": "Paris"}}]},
                    {"tool_calls": [{"name": "kill_runtime", "arguments": {"reason": "test"}}]},
                    {"text": "never seen"},
                ]
            }
        ]
    )
    agent = CopilotEval(model=model, tools=(lookup, kill_runtime), timeout_s=10)
    try:
        result = await run_copilot(agent, "weather?", pool=pool)
        noticed_after = time.monotonic() - killed["at"]
        print(
            f"\n11 runtime killed | noticed {noticed_after:.2f} s after the kill | {result.stop_reason} | {result.error}"
        )
        assert noticed_after < 2.0
        assert (result.success, result.stop_reason) == (False, "execution_error")
        assert f"Copilot runtime process {killed['pid']} was killed by SIGKILL" in result.error, result.error
        first = result.all_tool_calls[0]
        assert (first.name, first.success, first.result) == ("lookup", True, "sunny in Paris")

        fresh = await pool.lease()
        assert pool.replacements == 1
        assert fresh.alive() and fresh.process.pid != killed["pid"]
        assert process_gone(int(killed["pid"]))
        again = await run_copilot(
            CopilotEval(model=ScriptedModel([{"turns": [{"text": "back"}]}]), timeout_s=10), "hello", pool=pool
        )
        assert (again.success, again.final_response) == (True, "back")
    finally:
        processes = pool.processes()
        await pool.close()
        assert all(p.poll() is not None for p in processes)


CHILD = textwrap.dedent("""
    import asyncio, os, signal
    from copilot_eval.runtime.process.pool import RuntimePool

    async def main():
        handle = await RuntimePool(runtime_path=os.environ["COPILOT_CLI_PATH"]).lease()
        print(handle.process.pid, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # no finally, no atexit: a hard crash

    asyncio.run(main())
""")


def test_a_killed_python_process_leaves_no_runtime_behind():
    child = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COPILOT_CLI_PATH": RUNTIME},
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    runtime_pid = int(child.stdout.split()[0])
    deadline = time.monotonic() + 5
    while not process_gone(runtime_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert process_gone(runtime_pid), f"runtime {runtime_pid} outlived its killed parent"
