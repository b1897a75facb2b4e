"""run_copilot: one agent, one session on a pooled runtime, hard limits, evidence always returned.

Every path returns: the wait for the root ``session.idle`` is bounded by ``timeout_s``, a dead
runtime is noticed within a poll interval, and abort, disconnect and route removal each have
their own deadline. Whatever was captured before a fault is kept in the result.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
import uuid
from collections.abc import Sequence
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.stop_reason import StopReason
from copilot_eval.runtime.client_factory import new_copilot_home
from copilot_eval.runtime.permissions import permission_handler
from copilot_eval.runtime.request_audit import AuditingEndpoint
from copilot_eval.runtime.skill_check import SkillCheckError, check_skills
from copilot_eval.runtime.pool import RuntimeHandle, RuntimePool, shared_pool
from copilot_eval.runtime.run_control import RunControl
from copilot_eval.runtime.session_config import choose_model, configuration_snapshot, session_settings
from copilot_eval.runtime.tools import build_tool

POLL_INTERVAL_S = 0.1
ABORT_DEADLINE_S = 1.0
DISCONNECT_DEADLINE_S = 1.0


class _SessionWatch:
    """Follows the event stream: root idle, root errors and the turn count."""

    def __init__(self, control: RunControl, max_turns: int | None) -> None:
        self.events: list[Any] = []
        self.idle = asyncio.Event()
        self.errors: list[str] = []
        self.turns = 0
        self._control = control
        self._max_turns = max_turns

    def __call__(self, event: Any) -> None:
        self.events.append(event)
        kind = getattr(event.type, "value", event.type)
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
        if watch.idle.is_set():
            return None, None
        if control.stopped.is_set():
            return control.stop_reason, control.stop_message
        if not handle.alive():
            return "execution_error", f"{handle.exit_description()} during the session"
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "timeout", None
        try:
            await asyncio.wait_for(watch.idle.wait(), min(POLL_INTERVAL_S, remaining))
        except TimeoutError:
            pass


async def _bounded(awaitable: Any, seconds: float, what: str) -> str | None:
    """Await with a deadline; return a description of the failure instead of raising."""
    try:
        await asyncio.wait_for(awaitable, seconds)
        return None
    except TimeoutError:
        return f"{what} did not finish within {seconds:.1f} s"
    except Exception as error:  # noqa: BLE001 - cleanup problems are reported, never raised
        return f"{what} failed: {type(error).__name__}: {error}"


def _pre_tool_use(control: RunControl) -> Any:
    def hook(hook_input: Any, _context: Any) -> Any:
        if control.admit_tool_call(hook_input.get("toolName", "?")):
            return None
        return {"permissionDecision": "deny", "permissionDecisionReason": control.stop_message}

    return hook


async def run_copilot(agent: CopilotEval, prompt: str | Sequence[str], *, pool: RuntimePool | None = None,
                      default_model: Any = None, default_provider: Any = None) -> CopilotResult:
    """Run ``prompt`` (or several prompts, as one conversation) through the real runtime.

    Returns a CopilotResult describing the execution; raises only for configuration or setup
    errors (a bad agent, no runtime), never for what happens inside the session.
    """
    prompts = [prompt] if isinstance(prompt, str) else list(prompt)
    if not prompts or any(not isinstance(p, str) or not p.strip() for p in prompts):
        raise ValueError("prompt: give a non-empty prompt (or a list of non-empty prompts)")
    started = time.monotonic()
    choice = choose_model(agent, default_model, default_provider)
    pool = pool or shared_pool()
    handle = await pool.lease(mode=agent.client_mode, runtime_path=agent.runtime_path, github_token=choice.github_token)
    control = RunControl(max_tool_calls=agent.max_tool_calls)
    watch = _SessionWatch(control, agent.max_turns)
    working_directory = str(agent.working_directory or tempfile.mkdtemp(prefix="copilot-eval-run-"))
    tools = [build_tool(tool, control) for tool in agent.tools]
    settings = session_settings(agent, choice, working_directory=working_directory,
                                config_directory=str(new_copilot_home()), tools=tools)
    configuration = configuration_snapshot(settings, choice)
    session_id = f"copilot-eval-{uuid.uuid4()}"
    endpoint = choice.endpoint_factory(working_directory=working_directory) if choice.endpoint_factory else None
    auditor = AuditingEndpoint(endpoint, control) if agent.audit_requests else None  # evidence: request audit
    if auditor is not None or endpoint is not None:
        handle.router.register(session_id, auditor or endpoint)

    stop_reason: StopReason | None = None
    error: str | None = None
    cleanup_problems: list[str] = []
    session = None
    skill_discovery = None  # evidence: None means no discovery check was attempted
    try:
        deadline = time.monotonic() + agent.timeout_s
        session = await asyncio.wait_for(handle.client.create_session(
            session_id=session_id, on_permission_request=permission_handler(agent.permission_policy),
            hooks={"on_pre_tool_use": _pre_tool_use(control)}, on_event=watch, **settings,
        ), max(deadline - time.monotonic(), 0.001))
        if agent.skill_directories:  # evidence: skill discovery, before the first prompt
            skill_discovery, blocked = await check_skills(session, agent)
            if blocked:
                raise SkillCheckError(blocked)
        for text in prompts:
            deadline = time.monotonic() + agent.timeout_s
            watch.idle.clear()
            await session.send(text)
            stop_reason, error = await _wait_for_idle(watch, control, handle, deadline)
            if stop_reason is None and watch.errors:
                stop_reason, error = "execution_error", watch.errors[-1]
            if stop_reason is not None:
                break
        if stop_reason == "timeout":
            error = f"timed out after {agent.timeout_s:g} s (timeout_s) waiting for the agent to finish"
    except TimeoutError:
        stop_reason, error = "timeout", f"timed out after {agent.timeout_s:g} s while creating the session"
    except Exception as exc:  # noqa: BLE001 - the session failed; report it as evidence
        stop_reason = "execution_error"
        error = f"{type(exc).__name__}: {exc}"
        if not handle.alive():
            error = f"{handle.exit_description()}: {error}"
    finally:
        control.stopped.set()  # releases abandoned tool handlers
        if session is not None and handle.alive():
            if not watch.idle.is_set():
                problem = await _bounded(session.abort(), ABORT_DEADLINE_S, "aborting the session")
                if problem:
                    cleanup_problems.append(problem)
            problem = await _bounded(session.disconnect(), DISCONNECT_DEADLINE_S, "disconnecting the session")
            if problem:
                cleanup_problems.append(problem)
        handle.router.unregister(session_id)

    if stop_reason is None:
        stop_reason = "completed"
    if control.stop_reason == "request_audit_error":  # evidence: a refused request outranks its echo
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
