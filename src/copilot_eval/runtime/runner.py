"""run_copilot: one agent, one session on a pooled runtime, hard limits, evidence always returned.

Every path returns: the wait for the root ``session.idle`` is bounded by ``timeout_s``, a dead
runtime is noticed within a poll interval, and abort, disconnect and route removal each have
their own deadline. Whatever was captured before a fault is kept in the result.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.stop_reason import StopReason
from copilot_eval.runtime.client_factory import new_copilot_home
from copilot_eval.runtime.host import runtime_host
from copilot_eval.runtime.model_calls import ModelCallLog
from copilot_eval.runtime.permissions import permission_handler
from copilot_eval.runtime.pool import RuntimeHandle, RuntimePool, shared_pool
from copilot_eval.runtime.request_audit import AuditingEndpoint
from copilot_eval.runtime.run_control import RunControl
from copilot_eval.runtime.session_config import (
    ModelChoice,
    choose_model,
    configuration_snapshot,
    session_settings,
)
from copilot_eval.runtime.skill_check import SkillCheckError, check_skills
from copilot_eval.runtime.stop_gate import StopGate
from copilot_eval.runtime.tools import build_tool

POLL_INTERVAL_S = 0.1
# Cleanup after a run: abort (only when still busy) and disconnect share one budget, so that a run
# returns within timeout_s + CLEANUP_BUDGET_S + one poll interval whatever the runtime does.
CLEANUP_BUDGET_S = 1.8
ABORT_DEADLINE_S = 1.0
MIN_DISCONNECT_S = 0.8
EXIT_SETTLE_S = 0.5
DRAIN_DEADLINE_S = 1.0


class _SessionWatch:
    """Follows the event stream: root idle, root errors and the turn count."""

    def __init__(self, control: RunControl, max_turns: int | None) -> None:
        self.events: list[Any] = []
        self.idle = asyncio.Event()
        self.errors: list[str] = []
        self.turns = 0
        self.running_tools: dict[str, str] = {}  # call id -> tool name, started and not completed
        self.completed_tools = 0
        self._control = control
        self._max_turns = max_turns

    def __call__(self, event: Any) -> None:
        self.events.append(event)
        kind = getattr(event.type, "value", event.type)
        if kind == "tool.execution_start":
            self.running_tools[str(event.data.tool_call_id)] = str(getattr(event.data, "tool_name", None) or "?")
        elif kind == "tool.execution_complete":
            self.running_tools.pop(str(event.data.tool_call_id), None)
            self.completed_tools += 1
        if getattr(event, "agent_id", None):
            return  # a subagent's event: the root's idle and errors are what end the run
        if kind == "session.idle":
            self.idle.set()
        elif kind == "session.error":
            data = event.data
            status = getattr(data, "status_code", None)
            message = getattr(data, "message", None) or "session error"
            self.errors.append(f"{message} (HTTP {status})" if status else message)
        elif kind == "assistant.turn_start":
            self.turns += 1
            if self._max_turns is not None and self.turns > self._max_turns:
                self._control.request_stop("execution_error", f"max_turns={self._max_turns} exceeded")


async def _wait_for_idle(watch: _SessionWatch, control: RunControl, handle: RuntimeHandle,
                         deadline: float) -> tuple[StopReason | None, str | None]:
    """Wait until the root goes idle; otherwise say why the run has to end now."""
    while True:
        # A stop our side asked for (budget, audit, max_turns) is checked before idle: a fast model
        # can reach idle right after a refused call, and the refusal is still why the run ended.
        if control.stopped.is_set():
            if control.stop_reason == "tool_budget_exceeded":
                await _drain_admitted_calls(watch, control, handle, min(deadline, time.monotonic() + DRAIN_DEADLINE_S))
            return control.stop_reason, control.stop_message
        if watch.idle.is_set():
            return None, None
        if not handle.alive():
            return "execution_error", f"{handle.exit_description()} during the session"
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "timeout", None
        try:
            await asyncio.wait_for(watch.idle.wait(), min(POLL_INTERVAL_S, remaining))
        except TimeoutError:
            pass


async def _drain_admitted_calls(watch: _SessionWatch, control: RunControl, handle: RuntimeHandle,
                                until: float) -> None:
    """Let admitted and refused calls complete before the abort, so their outcome is evidence.

    When the model asks for several calls in one response, the budget refuses the extra ones while
    the admitted one is still running; aborting at once would lose its result. The hook refuses a
    call before the runtime reports it started, so "nothing running" is not enough: wait until
    every call the budget decided on has its completion.
    """
    decided = control.tool_calls_admitted + len(control.refused_tools)
    while ((watch.running_tools or watch.completed_tools < decided)
           and handle.alive() and time.monotonic() < until):
        await asyncio.sleep(POLL_INTERVAL_S / 2)


def _still_running(watch: _SessionWatch) -> str | None:
    if not watch.running_tools:
        return None
    names = ", ".join(f"{name!r} ({call_id})" for call_id, name in watch.running_tools.items())
    return f"tool calls still running: {names}"


class _RuntimeDied(Exception):
    """The runtime process exited while the runner was waiting on it."""


async def _guarded(awaitable: Any, handle: RuntimeHandle, deadline: float) -> Any:
    """Await a call into the runtime, but give up at the deadline or as soon as the runtime dies.

    A request to a dead runtime may never be answered; polling the process keeps the run from
    waiting for the timeout to find that out. The awaited task is cancelled, never leaked.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        while not task.done():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            if not handle.alive():
                raise _RuntimeDied(handle.exit_description())
            await asyncio.wait({task}, timeout=min(POLL_INTERVAL_S, remaining))
        return task.result()
    finally:
        if not task.done():
            task.cancel()


async def _settle_exit(handle: RuntimeHandle) -> None:
    """After a broken connection, give the process a moment to be reaped so its exit can be named."""
    for _ in range(int(EXIT_SETTLE_S / POLL_INTERVAL_S)):
        if not handle.alive():
            return
        await asyncio.sleep(POLL_INTERVAL_S)


async def _bounded(awaitable: Any, seconds: float, what: str) -> str | None:
    """Await with a deadline; return a description of the failure instead of raising.

    A step that overruns is not cancelled: it may still finish in the background (a late
    disconnect still frees the session in the runtime), but the run no longer waits for it.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        await asyncio.wait_for(asyncio.shield(task), seconds)
        return None
    except TimeoutError:
        task.add_done_callback(_swallow_late_outcome)
        return f"{what} did not finish within {seconds:.1f} s"
    except Exception as error:  # noqa: BLE001 - cleanup problems are reported, never raised
        return f"{what} failed: {type(error).__name__}: {error}"


def _swallow_late_outcome(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved, so a late failure is not logged as never retrieved


def _pre_tool_use(control: RunControl) -> Any:
    def hook(hook_input: Any, _context: Any) -> Any:
        if control.admit_tool_call(hook_input.get("toolName", "?")):
            return None
        return {"permissionDecision": "deny", "permissionDecisionReason": control.stop_message}

    return hook


async def _lease(pool: RuntimePool, agent: CopilotEval, choice: Any, deadline: float) -> RuntimeHandle:
    """A runtime from the pool within the run's deadline.

    The lease itself is shielded: a runtime that is still starting when the deadline passes keeps
    starting and stays in the pool for later runs instead of being cancelled half-way.
    """
    lease = asyncio.ensure_future(pool.lease(mode=agent.client_mode, runtime_path=agent.runtime_path,
                                             github_token=choice.github_token))
    try:
        return await asyncio.wait_for(asyncio.shield(lease), max(deadline - time.monotonic(), 0.001))
    except TimeoutError:
        # Nobody will use the lease that is still coming: hand it back as soon as it arrives.
        lease.add_done_callback(lambda done: None if done.cancelled() or done.exception() else pool.release(done.result()))
        raise


async def _clean_up(session: Any, handle: RuntimeHandle, watch: _SessionWatch) -> list[str]:
    """Abort (when still busy) and disconnect, within one shared cleanup budget."""
    problems: list[str] = []
    if session is None or not handle.alive():
        return problems
    cleanup_deadline = time.monotonic() + CLEANUP_BUDGET_S
    if not watch.idle.is_set():
        problem = await _bounded(session.abort(), ABORT_DEADLINE_S, "aborting the session")
        if problem:
            problems.append(problem)
    seconds = max(cleanup_deadline - time.monotonic(), MIN_DISCONNECT_S)
    problem = await _bounded(session.disconnect(), seconds, "disconnecting the session")
    if problem:
        problems.append(problem)
    return problems


def _discard_home(path: Path) -> None:
    """Remove a finished session's COPILOT_HOME in the background: the evidence already holds what
    matters, and thousands of runs would otherwise leave thousands of folders behind."""
    asyncio.get_running_loop().run_in_executor(None, lambda: shutil.rmtree(path, ignore_errors=True))


def _prompt_list(prompt: str | Sequence[str]) -> list[str]:
    prompts = [prompt] if isinstance(prompt, str) else list(prompt)
    if not prompts or any(not isinstance(p, str) or not p.strip() for p in prompts):
        raise ValueError("prompt: give a non-empty prompt (or a list of non-empty prompts)")
    return prompts


async def run_copilot(agent: CopilotEval, prompt: str | Sequence[str], *, pool: RuntimePool | None = None,
                      default_model: Any = None, default_provider: Any = None) -> CopilotResult:
    """Run ``prompt`` (or several prompts, as one conversation) through the real runtime.

    ``agent.timeout_s`` bounds the whole run, from this call to its return, cleanup aside (abort
    and disconnect have their own budget of ``CLEANUP_BUDGET_S``). Returns a CopilotResult
    describing the execution; raises only for configuration or setup errors (a bad agent, no
    runtime), never for what happens inside the session. Works from any event loop: the session
    itself runs on the runtime host's loop, where the pooled runtimes live.
    """
    prompts = _prompt_list(prompt)
    choice = choose_model(agent, default_model, default_provider)
    run = _run_on_host(agent, prompts, choice, pool, asyncio.get_running_loop())
    return await runtime_host().run(run)


def run_copilot_sync(agent: CopilotEval, prompt: str | Sequence[str], *, pool: RuntimePool | None = None,
                     default_model: Any = None, default_provider: Any = None) -> CopilotResult:
    """Blocking form of :func:`run_copilot` for scripts and notebooks (not for async code)."""
    prompts = _prompt_list(prompt)
    choice = choose_model(agent, default_model, default_provider)
    return runtime_host().run_sync(_run_on_host(agent, prompts, choice, pool, None))


async def _run_on_host(agent: CopilotEval, prompts: list[str], choice: ModelChoice, pool: RuntimePool | None,
                       caller_loop: asyncio.AbstractEventLoop | None) -> CopilotResult:
    """The run itself, on the host loop; async tool functions are sent back to ``caller_loop``."""
    started = time.monotonic()
    deadline = started + agent.timeout_s
    pool = pool or shared_pool()
    control = RunControl(max_tool_calls=agent.max_tool_calls)
    watch = _SessionWatch(control, agent.max_turns)
    working_directory = str(agent.working_directory or tempfile.mkdtemp(prefix="copilot-eval-run-"))
    tools = [build_tool(tool, control, caller_loop=caller_loop) for tool in agent.tools]
    config_home = new_copilot_home()
    settings = session_settings(agent, choice, working_directory=working_directory,
                                config_directory=str(config_home), tools=tools)
    configuration = configuration_snapshot(settings, choice)
    session_id = f"copilot-eval-{uuid.uuid4()}"
    endpoint = choice.endpoint_factory(working_directory=working_directory) if choice.endpoint_factory else None
    auditor = AuditingEndpoint(endpoint, control) if agent.audit_requests else None
    # Outermost the log (it sees what the gate and the audit refused), then the stop gate.
    model_calls = ModelCallLog(StopGate(auditor or endpoint, control))

    try:
        handle = await _lease(pool, agent, choice, deadline)
    except TimeoutError:
        facts = RunFacts(stop_reason="timeout", duration_ms=(time.monotonic() - started) * 1000,
                         error=f"timed out after {agent.timeout_s:g} s (timeout_s) while starting the Copilot runtime",
                         working_directory=working_directory, configuration=configuration,
                         tool_calls_admitted=0, agent_name=agent.name, prompt=prompts[0])
        _discard_home(config_home)
        return result_from_events([], agent=agent, facts=facts)
    handle.router.register(session_id, model_calls)

    stop_reason: StopReason | None = None
    error: str | None = None
    cleanup_problems: list[str] = []
    session = None
    skill_discovery = None  # None: no discovery check was attempted
    try:
        session = await _guarded(handle.client.create_session(
            session_id=session_id, on_permission_request=permission_handler(agent.permission_policy),
            hooks={"on_pre_tool_use": _pre_tool_use(control)}, on_event=watch, **settings,
        ), handle, deadline)
        if agent.skill_directories:  # discovery happens before the first prompt, so a block costs no model call
            skill_discovery, blocked = await check_skills(session, agent)
            if blocked:
                raise SkillCheckError(blocked)
        for text in prompts:
            watch.idle.clear()
            await _guarded(session.send(text), handle, deadline)
            stop_reason, error = await _wait_for_idle(watch, control, handle, deadline)
            if stop_reason is None and watch.errors:
                stop_reason, error = "execution_error", watch.errors[-1]
            if stop_reason is not None:
                break
        if stop_reason == "timeout":
            error = f"timed out after {agent.timeout_s:g} s (timeout_s) waiting for the agent to finish"
    except TimeoutError:
        stop_reason = "timeout"
        error = f"timed out after {agent.timeout_s:g} s (timeout_s) " + (
            "while creating the session" if session is None else "while sending the prompt")
    except _RuntimeDied as died:
        stop_reason, error = "execution_error", f"{died} during the session"
    except Exception as exc:  # noqa: BLE001 - the session failed; report it as evidence
        stop_reason = "execution_error"
        error = f"{type(exc).__name__}: {exc}"
        await _settle_exit(handle)
        if not handle.alive():
            error = f"{handle.exit_description()}: {error}"
    finally:
        if stop_reason == "timeout":  # before the abort cancels what was still waiting
            known = [part for part in (_still_running(watch), model_calls.summary()) if part]
            error = "; ".join([error or "timed out", *known])
        control.stopped.set()  # releases abandoned tool handlers
        cleanup_problems = await _clean_up(session, handle, watch)
        handle.router.unregister(session_id)
        pool.release(handle)
        _discard_home(config_home)

    if stop_reason is None:
        stop_reason = "completed"
    if control.stop_reason is not None:  # our own stop is the first cause; the runtime's reaction only echoes it
        stop_reason, error = control.stop_reason, control.stop_message
    facts = RunFacts(
        stop_reason=stop_reason, error=error, duration_ms=(time.monotonic() - started) * 1000,
        working_directory=working_directory, configuration=configuration,
        tool_calls_admitted=control.tool_calls_admitted, agent_name=agent.name, prompt=prompts[0],
        abandoned_call_ids=control.abandoned_call_ids, tool_exceptions=dict(control.tool_exceptions),
        cleanup_error="; ".join(cleanup_problems) or None,
        request_audit=list(auditor.records) if auditor is not None else None,
        skill_discovery=skill_discovery,
    )
    return result_from_events(watch.events, agent=agent, facts=facts)
