"""The admitted call is kept: when the tool budget refuses later calls, the calls it already
admitted run to completion within the run's deadline and keep their real outcome.

20 repetitions of each combination (async or sync tool; calls in one response or one per
response), run concurrently on the module's private pool so the whole file stays fast.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot

pytestmark = pytest.mark.runtime

REPETITIONS = 20
WORK_S = 0.4  # long enough that the refusal of the third call lands while the first two still run


async def slow_lookup(city: str) -> str:
    """Look up the weather in a city (async, takes a moment)."""
    await asyncio.sleep(WORK_S)
    return f"sunny in {city}"


def slow_lookup_sync(city: str) -> str:
    """Look up the weather in a city (blocking, takes a moment)."""
    time.sleep(WORK_S)
    return f"sunny in {city}"


def _script(tool: str, batch: str) -> ScriptedModel:
    calls = [{"name": tool, "arguments": {"city": city}} for city in ("A", "B", "C")]
    if batch == "parallel":  # three calls in one response: two admitted run together, one refused
        turns = [{"tool_calls": calls}, {"text": "done"}]
    else:  # one call per response: the third response's call is refused
        turns = [{"tool_calls": [call]} for call in calls] + [{"text": "done"}]
    return ScriptedModel([{"turns": turns}])


def _calls(result) -> list[tuple]:
    return [
        (c.call_id, (c.arguments or {}).get("city"), c.success, c.completion_received, c.result, c.error)
        for c in result.all_tool_calls
    ]


@pytest.mark.parametrize("batch", ["parallel", "sequential"])
@pytest.mark.parametrize("tool", [slow_lookup, slow_lookup_sync], ids=["async", "sync"])
async def test_calls_admitted_before_the_budget_stop_keep_their_real_outcome(fault_pool, tool, batch):
    agent = CopilotEval(model=_script(tool.__name__, batch), tools=(tool,), max_tool_calls=2, timeout_s=60)
    at_once = asyncio.Semaphore(5)  # a few at a time: concurrent enough to be quick, light on a shared machine

    async def one(n: int):
        async with at_once:
            return await run_copilot(agent, f"weather {n}?", pool=fault_pool)

    results = await asyncio.gather(*(one(n) for n in range(REPETITIONS)))
    for result in results:
        assert (result.stop_reason, result.tool_calls_admitted) == ("tool_budget_exceeded", 2), result.error
        kept = [c for c in result.all_tool_calls if c.success]
        # Which two of the three are admitted is the runtime's order; both keep their real result.
        assert [(c.completion_received, c.result) for c in kept] == [
            (True, f"sunny in {c.arguments['city']}") for c in kept
        ] and len(kept) == 2, _calls(result)
        assert not [c for c in result.all_tool_calls if c.success is None], (
            "an admitted call was abandoned",
            _calls(result),
        )
        refused = [c for c in result.all_tool_calls if c.success is False]
        assert len(refused) == 1 and "tool budget exceeded" in refused[0].error, _calls(result)
        # The session itself may be aborted after the stop; no call is recorded as cancelled.
        assert not [e for e in result.capture_errors if e.kind == "cancelled" and e.call_id], result.capture_errors
