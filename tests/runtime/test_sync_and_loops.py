"""Which code can start a run, and where a tool runs: plain sync code, a thread beside a running
loop, and async tools on the caller's own event loop (where its clients and locks belong)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot, run_copilot_sync
from copilot_eval.runtime.process.host import runtime_host

pytestmark = pytest.mark.runtime

ECHO = {"rules": [{"turns": [{"text": "echo: {prompt}"}]}]}
TOOL_THEN_ANSWER = {
    "rules": [
        {
            "turns": [
                {"tool_calls": [{"name": "where_am_i", "arguments": {}}]},
                {"text": "tool said: {last_tool_result}"},
            ]
        }
    ]
}


def test_run_copilot_sync_from_a_plain_script():
    # A fresh interpreter with no event loop anywhere: what a user's script or notebook cell is.
    script = textwrap.dedent("""
        import json
        from copilot_eval import CopilotEval, ScriptedModel, run_copilot_sync

        agent = CopilotEval(timeout_s=30, model=ScriptedModel.from_dict(%r))
        result = run_copilot_sync(agent, "hello from a script")
        print(json.dumps({"success": result.success, "answer": result.final_response}))
    """) % (ECHO,)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"success": True, "answer": "echo: hello from a script"}


async def test_run_copilot_sync_from_a_thread_while_an_event_loop_runs():
    agent = CopilotEval(timeout_s=30, model=ScriptedModel.from_dict(ECHO))
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.get_running_loop().create_task(tick())
    try:
        result = await asyncio.to_thread(run_copilot_sync, agent, "hello from a thread")
    finally:
        ticker.cancel()
    assert result.success, result.error
    assert result.final_response == "echo: hello from a thread"
    assert ticks > 0, "this loop kept running while the thread waited for the run"


async def test_async_tool_runs_on_the_callers_event_loop():
    seen: list[asyncio.AbstractEventLoop] = []

    async def where_am_i() -> str:
        """Report which event loop runs this tool."""
        seen.append(asyncio.get_running_loop())
        return "on a loop"

    agent = CopilotEval(timeout_s=30, tools=(where_am_i,), model=ScriptedModel.from_dict(TOOL_THEN_ANSWER))
    result = await run_copilot(agent, "which loop?")
    assert result.success, result.error
    assert result.final_response == "tool said: on a loop"
    assert seen == [asyncio.get_running_loop()]
    assert seen[0] is not runtime_host().loop  # not the loop the runtime clients live on
