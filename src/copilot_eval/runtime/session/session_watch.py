"""Following a session's event stream: when the root is idle, what failed, what is still running.

The runner waits on this rather than on the SDK's send-and-wait (which runtime 1.0.102 does not
implement), so it can also notice its own stop requests and a dead runtime while it waits.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from copilot_eval.capture.events import agent_scope, as_event_dict
from copilot_eval.capture.session_error import session_error_of
from copilot_eval.capture.usage import compaction_entry, usage_entry
from copilot_eval.runtime.process.handle import RuntimeHandle
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.session.deadlines import POLL_INTERVAL_S

WaitEnd = Literal["idle", "stopped", "runtime_exited", "timeout"]


class SessionWatch:
    """Follows the event stream: root idle, root errors and the turn count."""

    def __init__(self, control: RunControl, max_turns: int | None, *, stop_at_tools: tuple[str, ...] = ()) -> None:
        self.events: list[Any] = []
        self.idle = asyncio.Event()
        self.errors: list[str] = []
        self.turns = 0
        self.running_tools: dict[str, str] = {}  # call id -> tool name, started and not completed
        self.completed_tools = 0
        self.compactions: set[str] = set()  # compaction attempts started and not yet completed
        self._control = control
        self._max_turns = max_turns
        self._stop_at_tools = frozenset(stop_at_tools)

    def __call__(self, event: Any) -> None:
        self.events.append(event)
        kind = getattr(event.type, "value", event.type)
        if kind == "tool.execution_start":
            name = str(getattr(event.data, "tool_name", None) or "?")
            self.running_tools[str(event.data.tool_call_id)] = name
            if self._stop_at_tools and (hit := _stop_entry(name, event.data, self._stop_at_tools)):
                # the root's or a subagent's call: the choice is made either way
                self._control.request_stop("completed", f"stopped at the first call of {hit!r} (stop_at_tools)")
        elif kind == "tool.execution_complete":
            self.running_tools.pop(str(event.data.tool_call_id), None)
            self.completed_tools += 1
        elif kind == "session.compaction_start":
            self.compactions.add(str(getattr(event.data, "compaction_attempt_id", None)))
        elif kind == "session.compaction_complete":
            self.compactions.discard(str(getattr(event.data, "compaction_attempt_id", None)))
        if kind in ("assistant.usage", "session.compaction_complete") and self._control.budget.active:
            self._count(kind, event)
        if getattr(event, "agent_id", None):
            return  # a subagent's event: the root's idle and errors are what end the run
        if kind == "session.idle":
            self.idle.set()
        elif kind == "session.error":
            self.errors.append(session_error_of(event))
        elif kind == "assistant.turn_start":
            self.turns += 1
            if self._max_turns is not None and self.turns > self._max_turns:
                self._control.request_stop("execution_error", f"max_turns={self._max_turns} exceeded")

    def _count(self, kind: str, event: Any) -> None:
        """Count a model call's usage (any agent's, a compaction's) with capture's own reader of it."""
        decoded = as_event_dict(event)  # the wire form the runner keeps, as capture reads it
        data = decoded.get("data")
        if not isinstance(data, dict):
            return
        scope = agent_scope(decoded)
        entry = usage_entry(data, scope) if kind == "assistant.usage" else compaction_entry(data, scope)
        self._control.count_usage(entry)


def _stop_entry(name: str, data: Any, entries: frozenset[str]) -> str | None:
    """The ``stop_at_tools`` entry a tool start matches: ``TOOL``, or ``task:AGENT`` for a task call of that agent type."""
    if name in entries:
        return name
    if name == "task":
        arguments = getattr(data, "arguments", None)
        agent = arguments.get("agent_type") if isinstance(arguments, dict) else None
        if isinstance(agent, str) and f"task:{agent}" in entries:
            return f"task:{agent}"
    return None


async def wait_for_idle(watch: SessionWatch, control: RunControl, handle: RuntimeHandle, deadline: float) -> WaitEnd:
    """Wait until the root goes idle; otherwise say what ended the wait."""
    while True:
        # A stop our side asked for (budget, audit, max_turns) is checked before idle: a fast model
        # can reach idle right after a refused call, and the refusal is still why the run ended.
        if control.stopped.is_set():
            if control.stop_reason == "tool_budget_exceeded":
                await _drain_admitted_calls(watch, control, handle, deadline)
            elif control.stop_reason == "usage_budget_exceeded":
                await _finish_crossing_call(watch, control, handle, deadline)
            return "stopped"
        if watch.idle.is_set():
            return "idle"
        if not handle.alive():
            return "runtime_exited"
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "timeout"
        try:
            await asyncio.wait_for(watch.idle.wait(), min(POLL_INTERVAL_S, remaining))
        except TimeoutError:
            pass


async def _drain_admitted_calls(
    watch: SessionWatch, control: RunControl, handle: RuntimeHandle, deadline: float
) -> None:
    """Let admitted calls run to completion (within the run's deadline) before the run ends.

    When the model asks for several calls in one response, the budget refuses the extra ones while
    the admitted ones are still running; ending the run at once would abandon them. The hook
    decides on a call before the runtime reports it started, so the wait is for a completion of
    every call the budget decided on (refused ones get theirs at once), or for the root to go idle
    with nothing running, whichever comes first.
    """
    decided = control.tool_calls_admitted + len(control.refused_tools)
    while handle.alive() and time.monotonic() < deadline:
        running = bool(watch.running_tools) or control.handlers_running > 0
        if not running and (watch.completed_tools >= decided or watch.idle.is_set()):
            return
        await asyncio.sleep(POLL_INTERVAL_S / 2)


async def _finish_crossing_call(
    watch: SessionWatch, control: RunControl, handle: RuntimeHandle, deadline: float
) -> None:
    """Let the tool calls the crossing model call asked for run, within the run's deadline.

    The usage report comes before the message that carries the calls, so the run waits for the
    root to go idle, or for the stop gate to have refused the next model call with nothing left
    running: the agent acts on its last answer, and never asks the model again.
    """
    while handle.alive() and time.monotonic() < deadline:
        running = bool(watch.running_tools) or control.handlers_running > 0
        if not running and (watch.idle.is_set() or control.refused_model_calls > 0):
            return
        await asyncio.sleep(POLL_INTERVAL_S / 2)


async def wait_for_compactions(watch: SessionWatch, handle: RuntimeHandle, deadline: float) -> None:
    """Let a compaction the runtime started in the background report its usage before the run ends.

    Runtime 1.0.102 compacts after a turn, in the background: the root can go idle while the
    compaction's own model call is still being answered, and its counts arrive about 30 ms later in
    ``session.compaction_complete``. Without them the run's token totals would be unknown. The
    wait ends at the run's deadline (capture then says the totals are unknown), never in a timeout.
    """
    while watch.compactions and handle.alive() and time.monotonic() < deadline:
        await asyncio.sleep(POLL_INTERVAL_S / 2)


def still_running(watch: SessionWatch) -> str | None:
    """Which tool calls had started and not completed, for a timeout's error text."""
    if not watch.running_tools:
        return None
    names = ", ".join(f"{name!r} ({call_id})" for call_id, name in watch.running_tools.items())
    return f"tool calls still running: {names}"
