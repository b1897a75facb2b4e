"""One run's session: the object that owns its control state, event watch, model-request chain
and tools, and records what happened as raw facts for capture to judge.

The runner drives it in four steps (lease, open, send loop, close); nothing here decides how the
run ended: ``capture.outcome`` does, from the facts and the events.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.models.choice import ModelChoice
from copilot_eval.runtime.customization_files import copy_user_instructions, found_for_run
from copilot_eval.runtime.process.environment import EnvironmentPolicy
from copilot_eval.runtime.process.handle import RuntimeHandle
from copilot_eval.runtime.process.home import new_copilot_home, remove_home
from copilot_eval.runtime.process.pool import RuntimePool
from copilot_eval.runtime.process.trace_file import collect_session_trace
from copilot_eval.runtime.requests.chain import build_request_chain
from copilot_eval.runtime.requests.customization_sightings import probes_for
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.requests.usage_budget import UsageBudget
from copilot_eval.runtime.session.closing import abort_if_busy, close_session
from copilot_eval.runtime.session.deadlines import RuntimeDied, guarded, settle_exit
from copilot_eval.runtime.session.hooks import SessionHooks
from copilot_eval.runtime.session.host_requests import HANDLER_OF_KIND, HostAnswering, policy_snapshot
from copilot_eval.runtime.session.mcp_status import check_mcp_startup, list_mcp_servers
from copilot_eval.runtime.session.permissions import permission_handler
from copilot_eval.runtime.session.session_config import (
    configuration_snapshot,
    explain_session_error,
    session_settings,
)
from copilot_eval.runtime.session.session_watch import (
    SessionWatch,
    still_running,
    wait_for_compactions,
    wait_for_idle,
)
from copilot_eval.runtime.session.skill_check import SkillCheckError, check_skills
from copilot_eval.runtime.session.tools import build_tool
from copilot_eval.workdirs import new_working_directory

_log = logging.getLogger(__name__)


# Events after which the runtime has written spans worth reading early.
_SPANS_ENDED = {"assistant.turn_end": True, "tool.execution_complete": True, "assistant.turn_start": True}


def _kind(event: Any) -> str:
    kind = getattr(event, "type", None)
    return str(getattr(kind, "value", kind))


def _pre_tool_use(control: RunControl) -> Any:
    def hook(hook_input: Any, _context: Any) -> Any:
        if control.admit_tool_call(hook_input.get("toolName", "?")):
            return None
        return {"permissionDecision": "deny", "permissionDecisionReason": control.stop_message}

    return hook


def _configuration(
    agent: CopilotEval,
    settings: dict[str, Any],
    choice: ModelChoice,
    environment: EnvironmentPolicy,
    their_hooks: list[str],
) -> dict[str, Any]:
    """The run's configuration snapshot: the session's settings and the harness's own policies and limits."""
    configuration = {**configuration_snapshot(settings, choice), **policy_snapshot(agent)}
    configuration["environment"] = environment.description
    for budget in ("max_tokens", "max_premium_requests"):  # the harness's own limits (not SDK settings)
        if getattr(agent, budget) is not None:
            configuration[budget] = getattr(agent, budget)
    if agent.stop_at_tools:  # the evidence says the run was cut at a choice, not that the task was done
        configuration["stop_at_tools"] = list(agent.stop_at_tools)
    if agent.audit_markers:  # so that a run that sent no request still says what it watched for
        configuration["audit_markers"] = list(agent.audit_markers)
    if their_hooks:
        configuration["hooks"] = their_hooks
    return configuration


class SessionRun:
    """Everything one run owns, from the moment it is asked for to the moment its result is built."""

    def __init__(
        self, agent: CopilotEval, prompts: list[str], choice: ModelChoice, caller_loop: asyncio.AbstractEventLoop | None
    ) -> None:
        self.agent, self.prompts, self.choice = agent, prompts, choice
        self.started = time.monotonic()
        self.deadline = self.started + agent.timeout_s
        self.control = RunControl(
            max_tool_calls=agent.max_tool_calls,
            budget=UsageBudget(max_tokens=agent.max_tokens, max_premium_requests=agent.max_premium_requests),
        )
        self.watch = SessionWatch(self.control, agent.max_turns, stop_at_tools=agent.stop_at_tools)
        # Absolute: given a relative folder, the runtime loaded none of its instruction files (measured).
        self.working_directory = str(
            Path(agent.working_directory).resolve() if agent.working_directory else new_working_directory()
        )
        self.tools = [build_tool(tool, self.control, caller_loop=caller_loop) for tool in agent.tools]
        self.home = new_copilot_home()
        copy_user_instructions(agent.user_instructions_dir, self.home)
        # Found before the session starts, so that each audited request is read for them.
        self.customizations_found = (
            found_for_run(agent, Path(self.working_directory), self.home) if agent.audit_requests else None
        )
        self.settings = session_settings(
            agent, choice, working_directory=self.working_directory, config_directory=str(self.home), tools=self.tools
        )
        # The pre-tool-use hook is a round trip to Python for every tool call (about 30 ms of runtime
        # time per call here), so ours is only installed when there is a tool budget to enforce.
        ours = {"on_pre_tool_use": _pre_tool_use(self.control)} if self.control.max_tool_calls is not None else {}
        self.hooks = SessionHooks(ours, self.settings.pop("hooks", None), caller_loop=caller_loop)
        self.their_on_event = self.settings.pop("on_event", None)
        self.environment = EnvironmentPolicy(minimal=agent.minimal_env, pass_env=agent.pass_env)
        self.configuration = _configuration(agent, self.settings, choice, self.environment, self.hooks.their_hooks)
        user_handlers = frozenset(key for key in HANDLER_OF_KIND.values() if key in self.settings)
        self.host = HostAnswering(agent, self.control, caller_loop=caller_loop, user_handlers=user_handlers)
        self.session_id = f"copilot-eval-{uuid.uuid4()}"
        endpoint = (
            choice.endpoint_factory(working_directory=self.working_directory) if choice.endpoint_factory else None
        )
        self.chain = build_request_chain(
            endpoint,
            self.control,
            audit=agent.audit_requests,
            markers=agent.audit_markers,
            customizations=probes_for(list(self.customizations_found or ())),
        )
        self.model_calls, self.auditor = self.chain.model_calls, self.chain.auditor
        self.handle: RuntimeHandle | None = None
        self.session: Any = None
        self.skill_discovery: Any = None  # None: no discovery check was attempted
        self.mcp_servers: Any = None  # None: the agent has no MCP servers, or the runtime was not asked
        self.facts: dict[str, Any] = {}  # raw facts as seen; RunFacts fields
        self.cleanup_problems: list[str] = []
        self.phase = "while starting the Copilot runtime"  # what a timeout interrupted
        self.prompts_sent = 0
        self.runtime_trace: Any = None  # the runtime's spans of this session, once collected
        self._host_loop = asyncio.get_running_loop()

    def _on_event(self, event: Any) -> None:
        self.watch(event)
        if self.handle is not None and self.handle.trace is not None and _SPANS_ENDED.get(_kind(event)):
            # Spans the runtime has just ended are read while it works on, so that little is left
            # to read once the run is over (the reader lives on the host loop).
            self._host_loop.call_soon_threadsafe(self.handle.trace.read_new)
        if self.their_on_event is not None:
            try:  # the user's listener from extra_config; the SDK, too, lets a listener fail alone
                self.their_on_event(event)
            except Exception:
                _log.warning("the extra_config on_event listener raised", exc_info=True)

    def remaining(self) -> float:
        """Seconds left before the run's deadline."""
        return self.deadline - time.monotonic()

    async def open(self, handle: RuntimeHandle) -> None:
        """Route the session's model calls, create the session and check its skills."""
        self.handle = handle
        handle.router.register(self.session_id, self.model_calls)
        self.phase = "while creating the session"
        # A handler the user set through extra_config wins over the answering policy's and over the
        # permission policy (extra_config is applied last); hooks and on_event compose with ours.
        handlers = {
            "on_permission_request": permission_handler(self.agent.permission_policy),
            **self.host.session_handlers(),
        }
        handlers = {k: v for k, v in handlers.items() if k not in self.settings}
        self.session = await guarded(
            handle.client.create_session(
                session_id=self.session_id,
                hooks=self.hooks.handlers(),
                on_event=self._on_event,
                **handlers,
                **self.settings,
            ),
            handle,
            self.deadline,
        )
        self.host.attach(self.session, session_id=self.session_id, working_directory=self.working_directory)
        await self.host.register_interests(self.settings.get("mcp_servers"))
        if self.agent.skill_directories:  # discovery happens before the first prompt, so a block costs no model call
            self.skill_discovery, blocked = await check_skills(self.session, self.agent)
            if blocked:
                raise SkillCheckError(blocked)
        self.phase = "while starting the MCP servers"
        self.mcp_servers = await list_mcp_servers(self.session, self.agent, handle, self.deadline)
        check_mcp_startup(self.mcp_servers)  # a required server that failed to start: no prompt is sent

    async def send_all(self) -> None:
        """Send each prompt and wait for the root to go idle; stop at the first thing that ends the run."""
        assert self.handle is not None
        for text in self.prompts:
            self.watch.idle.clear()
            self.phase = "while sending the prompt"
            self.prompts_sent += 1
            await guarded(self.session.send(text), self.handle, self.deadline)
            ended = await wait_for_idle(self.watch, self.control, self.handle, self.deadline)
            if ended == "timeout":
                self.facts["timed_out_while"] = "waiting for the agent to finish"
            elif ended == "runtime_exited":
                self.facts["runtime_exit"] = self.handle.exit_description()
            elif ended == "idle" and self.watch.errors:
                message = self.watch.errors[-1]
                explained = explain_session_error(self.choice, message)
                if explained != message:
                    self.facts["session_error_note"] = explained.removeprefix(message).strip()
            if ended != "idle" or self.watch.errors:
                return
        await wait_for_compactions(self.watch, self.handle, self.deadline)

    async def record_failure(self, error: BaseException) -> None:
        """What a call into the runtime raised, as facts (the phase of a timeout is already known)."""
        handle = self.handle
        if isinstance(error, TimeoutError):
            self.facts["timed_out_while"] = self.phase
        elif isinstance(error, RuntimeDied):
            self.facts["runtime_exit"] = str(error)
        else:
            self.facts["exception"] = f"{type(error).__name__}: {error}"
            if handle is not None:
                await settle_exit(handle)
                if not handle.alive():
                    self.facts["runtime_exit"] = handle.exit_description()

    async def close(self, pool: RuntimePool) -> None:
        """End the run: note what was still going at a timeout, abandon leftover handlers, abort a
        busy session; then hand the session's closing to the pool and release the lease."""
        if "timed_out_while" in self.facts:  # before the abort cancels what was still waiting
            self.facts["known_at_timeout"] = [p for p in (still_running(self.watch), self.model_calls.summary()) if p]
        self.control.end()
        await self.host.settle()  # a sampling answer still being sent belongs to this run
        if self.handle is None:
            asyncio.get_running_loop().run_in_executor(None, remove_home, self.home)
            return
        problem = await abort_if_busy(self.session, self.handle, self.watch.idle)
        if problem:
            self.cleanup_problems.append(problem)
        pool.release(self.handle)  # the next run may lease this runtime while this session closes
        pool.track_cleanup(self.handle, close_session(self.session, self.handle, self.session_id, self.home))

    async def collect_trace(self) -> None:
        """Take this session's spans from the runtime's trace file (bounded wait for the last ones)."""
        if self.handle is None or self.handle.trace is None:
            return
        try:
            self.runtime_trace = await collect_session_trace(
                self.handle.trace, self.session_id, prompts_sent=self.prompts_sent
            )
        except Exception as error:  # an unreadable trace costs the trace (unknown), never the run
            _log.warning("copilot-eval: reading the runtime's trace failed: %s: %s", type(error).__name__, error)

    def result(self) -> CopilotResult:
        """The evidence: the events so far and the raw facts, judged by capture."""
        control = self.control
        facts = RunFacts(
            **self.facts,
            timeout_s=self.agent.timeout_s,
            stop_request=(control.stop_reason, control.stop_message or "") if control.stop_reason else None,
            duration_ms=(time.monotonic() - self.started) * 1000,
            working_directory=self.working_directory,
            configuration=self.configuration,
            tool_calls_admitted=control.tool_calls_admitted if control.max_tool_calls is not None else None,
            agent_name=self.agent.name,
            prompt=self.prompts[0],
            abandoned_call_ids=frozenset(control.abandoned_call_ids),
            tool_exceptions=dict(control.tool_exceptions),
            tool_results=dict(control.tool_results),
            tool_messages_sent=dict(self.chain.tool_messages.sent) if self.chain.tool_messages else {},
            tool_definitions=self.chain.tool_definitions.hashes if self.chain.tool_definitions else None,
            cleanup_error="; ".join(self.cleanup_problems) or None,
            request_audit=list(self.auditor.records) if self.auditor is not None else None,
            skill_discovery=self.skill_discovery,
            customizations_found=tuple(self.customizations_found) if self.customizations_found is not None else None,
            mcp_servers=self.mcp_servers,
            model_failure_status=self.model_calls.last_failure_status,
            model_retry_after_s=self.model_calls.last_retry_after_s,
            host_answers=tuple(self.host.answers),
            hook_calls=tuple(self.hooks.calls),
            budget_notes=tuple(control.budget.notes()),
            runtime_trace=self.runtime_trace,
            ended_ns=time.time_ns(),
        )
        return result_from_events(list(self.watch.events), agent=self.agent, facts=facts)
