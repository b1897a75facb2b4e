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
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.stop_reason import StopReason
from copilot_eval.runtime.process.home import new_copilot_home, remove_home
from copilot_eval.runtime.session.closing import ABORT_DEADLINE_S, ABORT_SETTLE_S, abort_if_busy, close_session
from copilot_eval.runtime.session.deadlines import RuntimeDied, guarded, settle_exit
from copilot_eval.runtime.process.host import runtime_host
from copilot_eval.runtime.requests.model_calls import ModelCallLog
from copilot_eval.runtime.session.permissions import permission_handler
from copilot_eval.runtime.process.pool import RuntimeHandle, RuntimePool, shared_pool
from copilot_eval.runtime.requests.request_audit import AuditingEndpoint
from copilot_eval.runtime.session.run_control import RunControl
from copilot_eval.runtime.session.session_config import (
    ModelChoice,
    choose_model,
    configuration_snapshot,
    explain_session_error,
    session_settings,
)
from copilot_eval.runtime.session.session_watch import (
    SessionWatch,
    still_running,
    wait_for_idle,
)
from copilot_eval.runtime.session.skill_check import SkillCheckError, check_skills
from copilot_eval.runtime.requests.stop_gate import StopGate
from copilot_eval.runtime.session.tools import build_tool

# A run that did not reach idle is aborted before it returns (bounded: abort, then its last events);
# closing the session happens after the result is returned (runtime/session/closing.py).
CLEANUP_BUDGET_S = ABORT_DEADLINE_S + ABORT_SETTLE_S


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


def _discard_home(path: Path) -> None:
    """Remove the COPILOT_HOME of a run that never got a session, without waiting for it."""
    asyncio.get_running_loop().run_in_executor(None, remove_home, path)


def _prompt_list(prompt: str | Sequence[str]) -> list[str]:
    prompts = [prompt] if isinstance(prompt, str) else list(prompt)
    if not prompts or any(not isinstance(p, str) or not p.strip() for p in prompts):
        raise ValueError("prompt: give a non-empty prompt (or a list of non-empty prompts)")
    return prompts


async def run_copilot(agent: CopilotEval, prompt: str | Sequence[str], *, pool: RuntimePool | None = None,
                      default_model: Any = None, default_provider: Any = None) -> CopilotResult:
    """Run ``prompt`` (or several prompts, as one conversation) through the real runtime.

    ``agent.timeout_s`` bounds the whole run, from this call to its return, except that a run
    that did not reach idle is aborted within ``CLEANUP_BUDGET_S`` more. The session is closed and
    deleted after the result is returned (the pool awaits that when it closes). Returns a CopilotResult
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
    watch = SessionWatch(control, agent.max_turns)
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
        session = await guarded(handle.client.create_session(
            session_id=session_id, on_permission_request=permission_handler(agent.permission_policy),
            hooks={"on_pre_tool_use": _pre_tool_use(control)}, on_event=watch, **settings,
        ), handle, deadline)
        if agent.skill_directories:  # discovery happens before the first prompt, so a block costs no model call
            skill_discovery, blocked = await check_skills(session, agent)
            if blocked:
                raise SkillCheckError(blocked)
        for text in prompts:
            watch.idle.clear()
            await guarded(session.send(text), handle, deadline)
            stop_reason, error = await wait_for_idle(watch, control, handle, deadline)
            if stop_reason is None and watch.errors:
                stop_reason, error = "execution_error", explain_session_error(choice, watch.errors[-1])
            if stop_reason is not None:
                break
        if stop_reason == "timeout":
            error = f"timed out after {agent.timeout_s:g} s (timeout_s) waiting for the agent to finish"
    except TimeoutError:
        stop_reason = "timeout"
        error = f"timed out after {agent.timeout_s:g} s (timeout_s) " + (
            "while creating the session" if session is None else "while sending the prompt")
    except RuntimeDied as died:
        stop_reason, error = "execution_error", f"{died} during the session"
    except Exception as exc:  # noqa: BLE001 - the session failed; report it as evidence
        stop_reason = "execution_error"
        error = f"{type(exc).__name__}: {exc}"
        await settle_exit(handle)
        if not handle.alive():
            error = f"{handle.exit_description()}: {error}"
    finally:
        if stop_reason == "timeout":  # before the abort cancels what was still waiting
            known = [part for part in (still_running(watch), model_calls.summary()) if part]
            error = "; ".join([error or "timed out", *known])
        control.stopped.set()  # releases abandoned tool handlers
        abort_problem = await abort_if_busy(session, handle, watch.idle)
        if abort_problem:
            cleanup_problems.append(abort_problem)
        pool.release(handle)  # the next run may lease this runtime while this session closes
        pool.track_cleanup(handle, close_session(session, handle, session_id, config_home))

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
