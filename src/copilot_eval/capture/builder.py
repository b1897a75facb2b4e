"""``result_from_events``: session events in, ``CopilotResult`` out. Pure: no I/O, no runtime."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from copilot_eval.capture.conversation import SessionFacts, model_used, permissions_of, session_facts, turns_of
from copilot_eval.capture.customizations import judge_customizations
from copilot_eval.capture.events import ROOT, event_data, event_type, normalise, text_or_none
from copilot_eval.capture.hooks import hook_decisions_of
from copilot_eval.capture.host_requests import host_requests_of
from copilot_eval.capture.mcp_servers import mcp_server_statuses, mcp_startup_failure, mcp_warnings
from copilot_eval.capture.outcome import decide_outcome
from copilot_eval.capture.phase_times import phase_times
from copilot_eval.capture.run_facts import HookCall, RunFacts
from copilot_eval.capture.scopes import Scope, split_scopes
from copilot_eval.capture.subagents import custom_agent_dispatches, runtime_subagents, untagged_lifecycle
from copilot_eval.capture.tool_calls import tool_calls_of
from copilot_eval.capture.trace_check import check_against_trace
from copilot_eval.capture.usage import premium_requests, unfinished_compactions, usage_of
from copilot_eval.evidence import CaptureError, CopilotResult, HookDecision, RequestAuditRecord, SubagentInvocation
from copilot_eval.evidence.tool_call import ToolException
from copilot_eval.redaction import redact, redact_data

BLOCKING_KINDS = frozenset(
    {
        "missing_completion",
        "unmatched_completion",
        "uncorrelated_event",
        "conflicting_duplicate",
        "cancelled",
    }
)
"""Capture errors that make session ``success`` false. The others (a result mismatch, an
unreadable payload, a missing child trace) make ``evidence_complete`` false only."""


def blocking_errors(errors: Iterable[CaptureError]) -> list[CaptureError]:
    """The capture errors that count against session success."""
    return [error for error in errors if error.kind in BLOCKING_KINDS]


def _first_prompt(events: list[dict[str, Any]]) -> str | None:
    for event in events:
        data = event_data(event)
        if event_type(event) == "user.message" and data is not None:
            return text_or_none(data.get("content"))
    return None


def _build_scope(
    scope: Scope, scopes: dict[str, Scope], facts: RunFacts | None, session: SessionFacts, runtime_version: str | None
) -> CopilotResult:
    """Everything one scope recorded, its children included; success is left to the caller."""
    errors: list[CaptureError] = []
    local = session if scope.key == ROOT else session_facts(scope.events, errors)
    calls = tool_calls_of(scope.events, scope=scope.key, facts=facts, errors=errors)
    usage = usage_of(scope.events, scope=scope.key, errors=errors)
    turns = turns_of(scope.events, errors)
    permissions = permissions_of(scope.events, calls, errors)

    def build_child(child_key: str, invocation: SubagentInvocation) -> CopilotResult:
        child_scope = scopes[child_key]
        selected = custom_agent_dispatches(child_scope.events)
        if selected and invocation.details is not None:
            invocation.details["selected_agent"] = selected[0].name
        child = _build_scope(child_scope, scopes, facts, session, runtime_version)
        child.agent_name = invocation.name
        child.session_id = session.session_id
        _judge_child(child, invocation)
        return child

    invocations = runtime_subagents(scope, scopes, build_child, errors)
    if scope.key == ROOT:
        invocations = custom_agent_dispatches(scope.events) + untagged_lifecycle(scope.events) + invocations
    # Alike in shape to the CaseEvidence built in runs/case_runner.py (keyword=local): another record, kept apart.
    result = CopilotResult(
        turns=turns,
        all_tool_calls=calls,
        usage=usage,
        permissions=permissions,
        capture_errors=errors,
        subagent_invocations=invocations,
        model_used=model_used(usage, local.selected_model),
        prompt=_first_prompt(scope.events),
        runtime_version=runtime_version,
        raw_events=list(scope.events) + list(scope.lifecycle) if scope.key != ROOT else [],
    )
    result.session_premium_requests = premium_requests(
        session.shutdown,
        scope=scope.key,
        usage=usage,
        has_children=bool(scope.children),
    )
    if scope.key != ROOT:
        result.error = local.error
    return result


def _judge_child(child: CopilotResult, invocation: SubagentInvocation) -> None:
    # A child is judged by the function that judges a session, from its own events and lifecycle:
    # it finished only if the runtime said its subagent completed.
    error = "; ".join(part for part in (child.error, invocation.error) if part) or None
    lifecycle = SessionFacts(idle_seen=invocation.status == "completed", error=error)
    outcome = decide_outcome(
        None,
        lifecycle,
        blocking_errors(child.capture_errors),
        unfinished=f"subagent status: {invocation.status or 'unknown'}",
    )
    child.success, child.error = outcome.success, outcome.error


def _finalise_root(result: CopilotResult, session: SessionFacts, facts: RunFacts | None) -> None:
    # A saved log does not say which servers were optional: every failure is then a warning.
    result.warnings.extend(mcp_warnings(result.mcp_servers, all_failures=facts is None))
    # A required MCP server that could not start ends the run before its first model call; that
    # failure is the cause, whatever the runner saw as a consequence.
    mcp_failure = (
        mcp_startup_failure(result.mcp_servers) if facts is not None and facts.mcp_servers is not None else None
    )
    outcome = decide_outcome(facts, session, blocking_errors(result.capture_errors), mcp_failure=mcp_failure)
    result.stop_reason, result.success, result.error = outcome.stop_reason, outcome.success, outcome.error
    result.rate_limit = outcome.rate_limit


def _redacted_exception(raised: ToolException | str) -> ToolException | str:
    if isinstance(raised, ToolException):
        return ToolException.model_validate(redact_data(raised.model_dump()))
    return redact(raised)


def _redacted_facts(facts: RunFacts | None) -> RunFacts | None:
    """The runner's facts with registered secrets scrubbed from every text they carry."""
    if facts is None:
        return None
    audit = facts.request_audit
    if audit is not None:
        audit = [RequestAuditRecord.model_validate(redact_data(record.model_dump())) for record in audit]
    stop_request = facts.stop_request
    if stop_request is not None:
        stop_request = (stop_request[0], redact(stop_request[1]) or "")
    trace = facts.runtime_trace
    if trace is not None:
        trace = trace.redacted(redact_data)
    return dataclasses.replace(
        facts,
        runtime_trace=trace,
        error=redact(facts.error),
        cleanup_error=redact(facts.cleanup_error),
        prompt=redact(facts.prompt),
        configuration=redact_data(facts.configuration),
        tool_exceptions={call_id: _redacted_exception(raised) for call_id, raised in facts.tool_exceptions.items()},
        tool_results=redact_data(facts.tool_results),
        tool_messages_sent=redact_data(facts.tool_messages_sent),
        request_audit=audit,
        stop_request=stop_request,
        runtime_exit=redact(facts.runtime_exit),
        exception=redact(facts.exception),
        known_at_timeout=tuple(redact(part) or "" for part in facts.known_at_timeout),
        session_error_note=redact(facts.session_error_note),
        host_answers=tuple(dataclasses.replace(a, **redact_data(_answer_parts(a))) for a in facts.host_answers),
        hook_calls=tuple(_redacted_hook_call(call) for call in facts.hook_calls),
    )


def _redacted_hook_call(call: HookCall) -> HookCall:
    decisions = tuple(HookDecision.model_validate(redact_data(d.model_dump())) for d in call.decisions)
    return dataclasses.replace(call, tool_args=redact_data(call.tool_args), decisions=decisions)


def _answer_parts(answer: Any) -> dict[str, Any]:
    return {"message": answer.message, "answer": answer.answer, "response": answer.response, "problem": answer.problem}


def result_from_events(events: Iterable[Any], *, agent: Any = None, facts: RunFacts | None = None) -> CopilotResult:
    """Build the evidence of one session from its events (SDK ``SessionEvent`` objects or dicts).

    Without ``facts`` (a saved log) ``stop_reason`` stays ``None`` and success means the root went
    idle with no session error and no blocking capture error. Registered secrets are scrubbed from
    events and facts first, so no part of the result (``raw_events`` included) holds one.
    """
    all_events = redact_data(normalise(events))
    facts = _redacted_facts(facts)
    scopes = split_scopes(all_events)
    root_errors: list[CaptureError] = []
    session = session_facts(scopes[ROOT].events, root_errors)
    result = _build_scope(scopes[ROOT], scopes, facts, session, session.runtime_version)
    result.capture_errors = root_errors + result.capture_errors
    result.raw_events = all_events
    result.session_id = session.session_id
    result.working_directory = session.working_directory
    result.agent_name = getattr(agent, "name", None)
    for custom in getattr(agent, "custom_agents", None) or ():
        result.warnings.extend(getattr(custom, "warnings", ()))
    result.warnings.extend(unfinished_compactions(all_events))
    result.mcp_servers = mcp_server_statuses(all_events, facts.mcp_servers if facts is not None else None)
    result.host_requests = host_requests_of(all_events, facts.host_answers if facts is not None else ())
    if facts is not None:
        result.agent_name = facts.agent_name or result.agent_name
        result.prompt = facts.prompt or result.prompt
        result.working_directory = facts.working_directory or result.working_directory
        result.duration_ms = facts.duration_ms
        result.configuration = facts.configuration
        result.request_audit = facts.request_audit
        result.tool_definitions = facts.tool_definitions
        result.tool_calls_admitted = facts.tool_calls_admitted
        result.skill_discovery = facts.skill_discovery
        if facts.customizations_found is not None:
            result.customizations = judge_customizations(
                facts.customizations_found, facts.request_audit, client_mode=getattr(agent, "client_mode", None)
            )
        result.hook_decisions = hook_decisions_of(all_events, facts.hook_calls)
        result.warnings.extend(facts.budget_notes)
        _add_runtime_trace(result, facts, all_events)
    _finalise_root(result, session, facts)
    return result


def _add_runtime_trace(result: CopilotResult, facts: RunFacts, events: list[dict[str, Any]]) -> None:
    """The runtime's own trace as evidence: kept, checked against the events, and read for time by phase."""
    trace = facts.runtime_trace
    if trace is None or not trace.spans:
        return  # the runtime wrote none: unknown, never an empty trace
    result.runtime_trace = trace
    result.capture_errors.extend(check_against_trace(result, trace, events))
    result.phase_times = phase_times(trace, duration_ms=facts.duration_ms, ended_ns=facts.ended_ns)
