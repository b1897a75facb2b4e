"""The fault matrix (docs/faults.md) through the real runtime: every run returns, honestly.

Each case answers turn 1 with a successful `lookup` call and faults on turn 2, so every case also
checks that the evidence recorded before the fault is kept. All cases run concurrently on one
private pool (the 10 s timeouts dominate), while a ticker checks that no handler blocked the loop.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from copilot_eval import ByokProvider, CopilotEval, ScriptedModel, run_copilot
from tests.faults.fault_helpers import RUNTIME, Ticker, child_pids

pytestmark = pytest.mark.runtime

SLACK_S = 2.0  # a run returns within timeout_s + SLACK_S, the runtime's own retries included
# Cases whose documented outcome is the runtime giving up (about 5-6 s of its own retries) get room
# for a slow CI machine; they still return as soon as the runtime gives up, so this costs no time.
RETRIES_END = 20
RELEASE_BLOCKED = threading.Event()


class InventoryError(Exception):
    """A user's own exception type: its name must survive verbatim."""


def lookup(city: str) -> str:
    """Look up the weather in a city."""
    return f"sunny in {city}"


def raising_tool(sku: str) -> str:
    """Count stock of a product."""
    raise InventoryError(f"no stock record for {sku!r}")


async def never_returns(sku: str) -> str:
    """Wait forever (an async handler that ignores the run ending)."""
    await asyncio.Event().wait()
    return "unreachable"


def blocks_30s(sku: str) -> str:
    """Block the calling thread for 30 s (a sync handler doing slow I/O)."""
    RELEASE_BLOCKED.wait(30)
    return "late"


FIRST_TURN = {"tool_calls": [{"name": "lookup", "arguments": {"city": "Paris"}}]}


def _model(*turns: dict[str, Any]) -> ScriptedModel:
    return ScriptedModel([{"turns": [FIRST_TURN, *turns]}])


def _faulting(fault: dict[str, Any]) -> ScriptedModel:
    return _model(fault, {"text": "done"})


def _tool_then(tool: str) -> ScriptedModel:
    return _model({"tool_calls": [{"name": tool, "arguments": {"sku": "A-1"}}]}, {"text": "recovered"})


def _closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens there once the probe is closed


def _cases() -> dict[str, CopilotEval]:
    def agent(model: Any, *, timeout_s: float = 10, tools: tuple[Any, ...] = (lookup,), **more: Any) -> CopilotEval:
        return CopilotEval(name="faulty", model=model, tools=tools, timeout_s=timeout_s, **more)

    three_at_once = {"tool_calls": [{"name": "lookup", "arguments": {"city": c}} for c in ("A", "B", "C")]}
    return {
        "01 HTTP 500 every time": agent(
            _faulting({"error": {"status": 500, "message": "upstream broke"}, "times": 99})
        ),
        "02 HTTP 429 + Retry-After": agent(
            _faulting({"error": {"status": 429, "message": "slow down", "retry_after": 1}, "times": 99}),
            timeout_s=RETRIES_END,
        ),
        "03 HTTP 400": agent(_faulting({"error": {"status": 400, "message": "context too long"}})),
        "04 malformed stream line": agent(
            _faulting({"malformed": True, "times": 99}), streaming=True, timeout_s=RETRIES_END
        ),
        "05 stream cut off": agent(_faulting({"cut_off": True, "times": 99}), streaming=True, timeout_s=RETRIES_END),
        "06 model never answers": agent(_model({"text": "too late", "delay_s": 600})),
        # 6 s: after the first model call even when all cases start at once (about 4 s on two
        # cores), and before the runtime's own retries give up (07b, about 9 s).
        "07a unreachable, timeout wins": CopilotEval(
            name="faulty", model="gpt-4o", timeout_s=6, provider=ByokProvider(base_url=_closed_port_url())
        ),
        "07b unreachable, retries end": CopilotEval(
            name="faulty", model="gpt-4o", timeout_s=RETRIES_END, provider=ByokProvider(base_url=_closed_port_url())
        ),
        "08 tool raises": agent(_tool_then("raising_tool"), tools=(lookup, raising_tool)),
        "09 tool never returns": agent(_tool_then("never_returns"), tools=(lookup, never_returns)),
        "10 sync tool blocks 30 s": agent(_tool_then("blocks_30s"), tools=(lookup, blocks_30s)),
        "12 budget 1, 3 calls at once": agent(
            ScriptedModel([{"turns": [three_at_once, {"text": "x"}]}]), max_tool_calls=1
        ),
        "13 budget 1, 3 turns": agent(
            _model(
                *[{"tool_calls": [{"name": "lookup", "arguments": {"city": c}}]} for c in ("B", "C")], {"text": "x"}
            ),
            max_tool_calls=1,
        ),
        # A retry that succeeds returns as soon as it does: the wider cap is room for a loaded machine
        # (with every case started at once, a 429's one-second wait and the retry once took over 10 s).
        "14 one 500, then success": agent(
            _faulting({"error": {"status": 500, "message": "blip"}}), timeout_s=RETRIES_END
        ),
        "15 one 429, then success": agent(
            _faulting({"error": {"status": 429, "message": "busy", "retry_after": 1}}), timeout_s=RETRIES_END
        ),
    }


@dataclass
class Outcome:
    """One case's result and how long its run took from call to return."""

    agent: CopilotEval
    result: Any
    seconds: float


@pytest.fixture(scope="module")
async def matrix(fault_pool):
    """Run every case at once on the private pool; a ticker watches the event loop meanwhile."""
    cases = _cases()

    async def timed(agent: CopilotEval) -> Outcome:
        started = time.monotonic()
        result = await run_copilot(agent, "What is the weather in Paris?", pool=fault_pool)
        return Outcome(agent, result, time.monotonic() - started)

    threads_before = {t.ident for t in threading.enumerate()}
    # Runtimes already there (another module's, on the same pytest-xdist worker) are not this matrix's.
    runtimes_before = _runtime_children()
    with Ticker() as ticker:
        outcomes = await asyncio.gather(*(timed(agent) for agent in cases.values()))
    by_name = dict(zip(cases, outcomes, strict=True))
    print("\ncase | wall s | stop_reason | success")
    for name, outcome in by_name.items():
        print(f"{name} | {outcome.seconds:.2f} | {outcome.result.stop_reason} | {outcome.result.success}")
        if os.environ.get("FAULTS_VERBOSE"):
            print("    ", outcome.result.error)
    yield by_name, ticker, threads_before, runtimes_before
    RELEASE_BLOCKED.set()


def _outcome(matrix: Any, name: str) -> Any:
    return matrix[0][name]


def _first_call_kept(result: Any) -> None:
    first = result.all_tool_calls[0]
    assert (first.name, first.completion_received, first.success, first.result) == (
        "lookup",
        True,
        True,
        "sunny in Paris",
    )
    assert len(result.turns) >= 2


def test_every_run_returns_within_its_timeout_plus_slack(matrix):
    late = {name: round(o.seconds, 2) for name, o in matrix[0].items() if o.seconds > o.agent.timeout_s + SLACK_S}
    assert late == {}


def test_nothing_that_did_not_complete_is_a_pass(matrix):
    for name, outcome in matrix[0].items():
        result = outcome.result
        if result.success:
            assert result.stop_reason == "completed" and result.error is None, name
        else:
            assert result.error, name


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("01 HTTP 500 every time", ["timed out after 10 s", "HTTP 500: upstream broke", "still retrying"]),
        ("06 model never answers", ["timed out after 10 s", "a model call had been waiting"]),
    ],
)
def test_timeout_wins_over_the_runtimes_retries_and_says_what_it_knows(matrix, name, words):
    result = _outcome(matrix, name).result
    assert (result.success, result.stop_reason) == (False, "timeout")
    assert all(word in result.error for word in words), result.error
    _first_call_kept(result)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("02 HTTP 429 + Retry-After", ["429 slow down", "retried"]),
        ("03 HTTP 400", ["context too long", "HTTP 400"]),
        ("04 malformed stream line", ["Failed to get response from the AI model"]),
        ("05 stream cut off", ["Failed to get response from the AI model"]),
    ],
)
def test_model_errors_end_as_execution_errors_with_the_runtimes_words(matrix, name, words):
    result = _outcome(matrix, name).result
    assert (result.success, result.stop_reason) == (False, "execution_error")
    assert all(word in result.error for word in words), result.error
    _first_call_kept(result)


def test_unreachable_endpoint_timeout_names_the_connection_failure(matrix):
    result = _outcome(matrix, "07a unreachable, timeout wins").result
    assert (result.success, result.stop_reason) == (False, "timeout")
    assert "timed out after 6 s" in result.error and "ConnectError" in result.error, result.error


def test_unreachable_endpoint_after_the_runtimes_retries_is_an_execution_error(matrix):
    result = _outcome(matrix, "07b unreachable, retries end").result
    assert (result.success, result.stop_reason) == (False, "execution_error")
    assert "All connection attempts failed" in result.error, result.error


def test_a_raising_tool_keeps_its_exception_verbatim_and_the_model_may_recover(matrix):
    result = _outcome(matrix, "08 tool raises").result
    assert (result.success, result.stop_reason, result.error) == (True, "completed", None)
    failed = result.all_tool_calls[1]
    assert (failed.name, failed.completion_received, failed.success) == ("raising_tool", True, False)
    assert failed.error == "InventoryError: no stock record for 'A-1'"
    assert result.final_response == "recovered"
    _first_call_kept(result)


@pytest.mark.parametrize(
    ("name", "tool"),
    [
        ("09 tool never returns", "never_returns"),
        ("10 sync tool blocks 30 s", "blocks_30s"),
    ],
)
def test_a_handler_that_never_returns_is_abandoned_not_awaited(matrix, name, tool):
    result = _outcome(matrix, name).result
    assert (result.success, result.stop_reason) == (False, "timeout")
    assert f"tool calls still running: {tool!r}" in result.error, result.error
    stuck = result.all_tool_calls[1]
    assert stuck.name == tool and stuck.completion_received is not True and stuck.success is None
    assert "abandoned" in stuck.error
    assert any(e.kind == "cancelled" and "abandoned" in e.message for e in result.capture_errors)
    _first_call_kept(result)


# A handler run on the loop would stall it for its whole 30 s block (no timeout can fire meanwhile);
# the bound leaves room for a busy machine's scheduling gaps (0.7 s seen at load 12 on two cores).
LOOP_STALL_BOUND_S = 3.0


def test_the_blocking_sync_handler_never_blocked_the_event_loop(matrix):
    _, ticker, _, _ = matrix
    assert ticker.longest_gap < LOOP_STALL_BOUND_S, f"the event loop stalled for {ticker.longest_gap:.2f} s"


def test_the_abandoned_worker_thread_is_a_daemon_and_ends_with_its_user_code(matrix):
    _, _, before, _ = matrix
    workers = [t for t in threading.enumerate() if t.ident not in before and t.name.startswith("copilot-eval-tool-")]
    assert [t.name for t in workers] == ["copilot-eval-tool-blocks_30s"]  # still inside the user's code
    assert all(t.daemon for t in workers)  # so it cannot keep the interpreter alive
    RELEASE_BLOCKED.set()
    for worker in workers:
        worker.join(2)
    assert not any(t.is_alive() for t in workers)


@pytest.mark.parametrize("name", ["12 budget 1, 3 calls at once", "13 budget 1, 3 turns"])
def test_tool_budget_admits_one_call_and_refuses_the_rest(matrix, name):
    result = _outcome(matrix, name).result
    assert (result.success, result.stop_reason, result.tool_calls_admitted) == (False, "tool_budget_exceeded", 1)
    assert "max_tool_calls=1" in result.error
    ran = [c for c in result.all_tool_calls if c.success]
    refused = [c for c in result.all_tool_calls if not c.success]
    assert [(c.name, c.completion_received, c.result is not None) for c in ran] == [("lookup", True, True)]
    assert refused and all(c.success is False and "tool budget exceeded" in c.error for c in refused), refused


@pytest.mark.parametrize("name", ["14 one 500, then success", "15 one 429, then success"])
def test_one_transient_error_is_retried_by_the_runtime_and_the_run_completes(matrix, name):
    result = _outcome(matrix, name).result
    assert (result.success, result.stop_reason, result.error) == (True, "completed", None)
    _first_call_kept(result)
    assert len(result.all_tool_calls) == 1


def test_no_run_left_a_runtime_process_behind(matrix, fault_pool):
    from copilot_eval.runtime.process.handle import _live_processes

    assert 1 <= len(fault_pool.processes()) <= fault_pool.max_runtimes  # the cases shared the pool's runtimes
    assert fault_pool.replacements == 0
    pooled = {p.pid for p in _live_processes if p.poll() is None}  # this and any other pool of the session
    held = {p.pid for p in fault_pool.processes() if p.poll() is None}
    assert held and held <= _runtime_children()  # the check sees runtimes: the pool's own are found by it
    assert _runtime_children() - pooled - matrix[3] == set()


def _runtime_children() -> set[int]:
    found = set()
    for pid in child_pids(os.getpid()):
        try:
            # The runtime's own path: a `python -m copilot_eval...` process of another test is no runtime.
            if RUNTIME.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
        except OSError:
            pass
    return found
