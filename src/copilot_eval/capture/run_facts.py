"""What only the live runner knows about a run, handed to capture alongside the events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from copilot_eval.evidence import HookDecision, RequestAuditRecord, SkillDiscovery, StopReason
from copilot_eval.evidence.customizations import FoundCustomization
from copilot_eval.evidence.runtime_trace import RuntimeTrace
from copilot_eval.evidence.tool_call import ToolException


@dataclass(frozen=True)
class HostAnswer:
    """How the runner answered one request to the host (a question, an elicitation, a sampling, ...).

    The request itself and, for questions and elicitations, the answer are in the session's
    events; what only the runner knows is which policy decided and what went wrong. A sampling
    answer is only here: the runtime's completion event does not carry it. ``request_id`` is known
    for sampling only (the SDK hands the other two handlers no id); those are matched to their
    events by kind and message, in order.
    """

    kind: str
    message: str | None
    answered_by: str
    action: str | None = None
    answer: Any = None
    response: dict[str, Any] | None = None
    problem: str | None = None
    request_id: str | None = None


@dataclass(frozen=True)
class HookCall:
    """One invocation of a session hook as the runner saw it, with each handler's own decision.

    The handlers are not told the tool call's id (SDK 1.0.27 hands a pre-tool-use hook the tool's
    name and arguments only); capture finds it in the runtime's ``hook.start`` event of the same
    invocation, by hook type, tool name and arguments.
    """

    hook: str
    tool_name: str | None
    tool_args: Any
    decisions: tuple[HookDecision, ...]


@dataclass(frozen=True)
class RunFacts:
    """Runner-side facts that no session event carries (how the wait ended, timings, guards, cleanup).

    The runner records what it saw; ``capture.outcome.decide_outcome`` alone turns these facts
    and the events into ``stop_reason``, ``success`` and ``error``. A saved event log has no
    RunFacts; capture then leaves ``stop_reason`` at ``None`` and judges from the events alone.
    ``stop_reason`` and ``error`` are for callers that already know the outcome (a replay, a
    test): when given, they are taken as declared.
    """

    stop_reason: StopReason | None = None
    error: str | None = None
    # What ended the runner's wait, as seen (each None when it did not happen):
    stop_request: tuple[StopReason, str] | None = None  # our own stop (budget, max_turns, audit): reason, why
    timed_out_while: str | None = None  # "while creating the session", "waiting for the agent to finish", ...
    timeout_s: float | None = None
    runtime_exit: str | None = None  # "Copilot runtime process 123 was killed by SIGKILL"
    exception: str | None = None  # "Type: message" of what a call into the runtime raised
    known_at_timeout: tuple[str, ...] = ()  # tool calls still running, what the model calls were doing
    session_error_note: str | None = None  # how to fix the session error, when the model source knows
    # The latest model call, when it failed and no call has started since, as the request-handler
    # seam saw it: its HTTP status and the Retry-After it sent (seconds); session events carry
    # neither the header nor, over WebSocket, the status.
    model_failure_status: int | None = None
    model_retry_after_s: float | None = None
    duration_ms: float | None = None
    working_directory: str | None = None
    configuration: dict[str, Any] | None = None
    request_audit: list[RequestAuditRecord] | None = None
    tool_calls_admitted: int | None = None
    skill_discovery: SkillDiscovery | None = None
    # The customization files found for this run (None: not looked for: the request audit is off).
    customizations_found: tuple[FoundCustomization, ...] | None = None
    agent_name: str | None = None
    prompt: str | None = None
    # Handlers that never returned and were given up on: their outcome is unknown.
    abandoned_call_ids: frozenset[str] = field(default_factory=frozenset)
    # call id -> what a Python handler raised (a ToolException, or its "ExceptionType: message"
    # text); the model and the runtime get only the SDK's generic failure text, so this is the
    # only place the real exception survives.
    tool_exceptions: dict[str, ToolException | str] = field(default_factory=dict)
    # call id -> (result type, text for the model, error) a Python handler handed the runtime.
    tool_results: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)
    # call id -> the tool message of that call as the model's requests carried it; only where the
    # run sees the requests (an in-process model source, or audit_requests=True).
    tool_messages_sent: dict[str, str] = field(default_factory=dict)
    # tool name (as the model sees it) -> hash of its definition in the run's first request that
    # offered tools; None where the run does not see its requests.
    tool_definitions: dict[str, str] | None = None
    cleanup_error: str | None = None
    # The runtime's MCP server list taken before the first prompt (rows of name, status, error,
    # optional); None when the run had no MCP servers or never got that far.
    mcp_servers: list[dict[str, Any]] | None = None
    # How each request to the host (question, elicitation, sampling) was answered, in order.
    host_answers: tuple[HostAnswer, ...] = ()
    # Every invocation of a hook the runner installed (its own, the user's extra_config hooks), in order.
    hook_calls: tuple[HookCall, ...] = ()
    # A usage budget that could not be enforced (the runtime left counts out), one sentence each.
    budget_notes: tuple[str, ...] = ()
    # The runtime's own spans of this session (its file exporter); None when it wrote none.
    runtime_trace: RuntimeTrace | None = None
    # When the run ended, in nanoseconds since the epoch (the trace's clock): closes the last phase.
    ended_ns: int | None = None

    def __post_init__(self) -> None:
        # Accept any iterable of ids from the runner, but keep the record immutable.
        object.__setattr__(self, "abandoned_call_ids", frozenset(self.abandoned_call_ids))
        object.__setattr__(self, "known_at_timeout", tuple(self.known_at_timeout))
        object.__setattr__(self, "host_answers", tuple(self.host_answers))
        object.__setattr__(self, "hook_calls", tuple(self.hook_calls))
        object.__setattr__(self, "budget_notes", tuple(self.budget_notes))
