"""One graded case as one OpenTelemetry trace, built as plain records (no SDK needed, so it is tested alone).

The trace: a case span (test set, case key, status, score, surface, session) with the runtime's own
spans of that case's prompt beneath it (the session's start-up spans go with the first case of a
conversation), or, for a Copilot Studio target, one ``invoke_agent`` span per turn; and on the case
span one ``gen_ai.evaluation.result`` event per grader verdict (``gen_ai.evaluation.name``,
``gen_ai.evaluation.score.value`` when the grader gave a score, ``gen_ai.evaluation.score.label``
pass / fail / error / unknown, ``gen_ai.evaluation.explanation``, ``error.type`` when the grader
could not grade). The runtime's span ids are renewed per export (so a run exported twice does not
collide with itself) and its spans keep their names, times and attributes. Message content
(prompts, answers, tool arguments and results) goes only with ``capture_content``; every text is
redacted; a count that is unknown is left out, never sent as 0.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase
from copilot_eval.evidence.runtime_trace import RuntimeTrace, TraceSpan
from copilot_eval.redaction import redact, redact_data

__all__ = ["CONTENT_ATTRIBUTES", "CaseContext", "SpanRecord", "case_trace"]

# What the runtime records only with content capture, and what must not leave without --otel-capture-content.
CONTENT_ATTRIBUTES = frozenset(
    {
        "gen_ai.input.messages",
        "gen_ai.output.messages",
        "gen_ai.system_instructions",
        "gen_ai.tool.definitions",
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
        "gen_ai.tool.description",
        "gen_ai.prompt",
        "gen_ai.completion",
    }
)
_CONTENT_PREFIXES = ("github.copilot.tool.parameters.",)
EVALUATION_EVENT = "gen_ai.evaluation.result"
STUDIO_KIND = "copilot-studio-target"  # TargetResult.kind: its turns become spans (it has no runtime trace)
RUNTIME_RESOURCE = {"service.name": "github-copilot"}


@dataclass
class SpanRecord:
    """One span to export: ids as integers, times in nanoseconds since the epoch."""

    name: str
    trace_id: int
    span_id: int
    parent_id: int | None
    start_ns: int
    end_ns: int
    attributes: dict[str, Any] = field(default_factory=dict)
    events: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)
    error: str | None = None  # the status description of a span that failed
    kind: int = 0  # SpanKind: 0 internal, 2 client
    resource: Mapping[str, Any] | None = None  # None: copilot-eval's own resource
    scope: str = "copilot_eval"


@dataclass(frozen=True)
class CaseContext:
    """What the case span says beside the case itself: the set, the surface, the repeat."""

    test_set: str
    surface: str | None = None
    capture_content: bool = False


def _clean(attributes: Mapping[str, Any], capture_content: bool) -> dict[str, Any]:
    kept = {
        key: value
        for key, value in attributes.items()
        if value is not None
        and (capture_content or (key not in CONTENT_ATTRIBUTES and not key.startswith(_CONTENT_PREFIXES)))
    }
    scrubbed: dict[str, Any] = redact_data(_exportable(kept))
    return scrubbed


def _exportable(attributes: dict[str, Any]) -> dict[str, Any]:
    """OpenTelemetry attribute values are scalars or lists of one scalar type: the rest goes as JSON text."""
    out: dict[str, Any] = {}
    for key, value in attributes.items():
        if isinstance(value, str | bool | int | float):
            out[key] = value
        elif (isinstance(value, list) and value and all(isinstance(v, str) for v in value)) or (
            isinstance(value, list) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            out[key] = list(value)
        else:
            out[key] = json.dumps(value, ensure_ascii=False, default=str)
    return out


def _new_id(trace_id: int, old: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{trace_id:032x}/{old}".encode()).digest()[:8], "big") or 1


def _prompt_groups(trace: RuntimeTrace) -> tuple[list[TraceSpan], list[list[TraceSpan]]]:
    """The session's spans outside any prompt, and each prompt's root ``invoke_agent`` with all beneath it."""
    by_id = trace.by_id()

    def root_of(span: TraceSpan) -> TraceSpan | None:
        seen: set[str] = set()
        current: TraceSpan | None = span
        found = None
        while current is not None and current.span_id not in seen:
            seen.add(current.span_id)
            if current.operation == "invoke_agent":
                found = current
            current = by_id.get(current.parent_span_id or "")
        return found

    roots = sorted(
        (s for s in trace.spans if s.operation == "invoke_agent" and root_of(s) is s), key=lambda s: s.start_ns or 0
    )
    index = {root.span_id: number for number, root in enumerate(roots)}
    groups: list[list[TraceSpan]] = [[] for _ in roots]
    session: list[TraceSpan] = []
    for span in trace.spans:
        root = root_of(span)
        (groups[index[root.span_id]] if root is not None else session).append(span)
    return session, groups


def _runtime_records(
    spans: Sequence[TraceSpan], trace_id: int, case_id: int, capture_content: bool, version: str | None
) -> list[SpanRecord]:
    present = {span.span_id for span in spans}
    resource = {**RUNTIME_RESOURCE, **({"service.version": version} if version else {})}
    records = []
    for span in spans:
        if span.start_ns is None or span.end_ns is None:
            continue
        parent = _new_id(trace_id, span.parent_span_id) if span.parent_span_id in present else case_id
        records.append(
            SpanRecord(
                name=redact(span.name) or span.name,
                trace_id=trace_id,
                span_id=_new_id(trace_id, span.span_id),
                parent_id=parent,
                start_ns=span.start_ns,
                end_ns=span.end_ns,
                attributes=_clean(span.attributes, capture_content),
                events=[
                    (e.name, e.time_ns or span.start_ns, _clean(e.attributes, capture_content)) for e in span.events
                ],
                error=(redact(span.status_message) or "error") if span.status == "error" else None,
                kind=span.kind or 0,
                resource=resource,
                scope=span.scope or "github.copilot",
            )
        )
    return records


def _target_records(
    evidence: Any, turn_index: int, trace_id: int, case_id: int, end_ns: int, capture: bool
) -> list[SpanRecord]:
    """A Copilot Studio target's turn as an ``invoke_agent`` span, timed by its duration."""
    turns = list(getattr(evidence, "turns", []) or [])
    if turn_index >= len(turns):
        return []
    turn = turns[turn_index]
    duration_ns = int((turn.duration_ms or 0) * 1e6)
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": "copilot_studio",
        "gen_ai.agent.name": getattr(evidence, "agent_name", None),
        "gen_ai.conversation.id": getattr(evidence, "conversation_id", None),
        "copilot_eval.target.type": getattr(evidence, "target_type", None),
        "copilot_eval.turn.latency_ms": turn.latency_ms,
        "copilot_eval.turn.citations": len(turn.citations),
        "copilot_eval.turn.ended_by": turn.ended_by,
        "http.response.status_code": turn.http_status,
        "error.type": turn.error_code or ("error" if turn.error else None),
    }
    if capture:
        attributes["copilot_eval.turn.prompt"] = turn.prompt
        attributes["copilot_eval.turn.answer"] = turn.answer
    name = f"invoke_agent {getattr(evidence, 'agent_name', None) or 'copilot-studio'}"
    return [
        SpanRecord(
            name=name,
            trace_id=trace_id,
            span_id=secrets.randbits(64) or 1,
            parent_id=case_id,
            start_ns=end_ns - duration_ns,
            end_ns=end_ns,
            attributes=_clean(attributes, True),
            error=redact(turn.error) if turn.error else None,
            kind=2,
        )
    ]


def _evaluation_events(
    result: EvalCaseResult, at_ns: int, capture_content: bool
) -> list[tuple[str, int, dict[str, Any]]]:
    events = []
    for grade in result.grades:
        attributes: dict[str, Any] = {
            "gen_ai.evaluation.name": grade.method,
            "gen_ai.evaluation.score.value": grade.score,  # left out below when the grader gave none
            "gen_ai.evaluation.score.label": grade.status.value,
            "gen_ai.evaluation.explanation": grade.explanation,
        }
        if grade.status is CaseStatus.ERROR:
            attributes["error.type"] = grade.error_reason or "grader_error"
        events.append((EVALUATION_EVENT, at_ns, _clean(attributes, capture_content)))
    return events


def _case_score(result: EvalCaseResult) -> float | None:
    """The case's score: the lowest known grader score (a case passes only when every grader passes)."""
    scores = [grade.score for grade in result.grades if grade.score is not None]
    return min(scores) if scores else None


def case_trace(
    case: EvalTestCase | None,
    result: EvalCaseResult,
    evidence: Any,
    *,
    turn_index: int | None,
    context: CaseContext,
    key: str | None = None,
) -> list[SpanRecord]:
    """The spans of one case: its case span first, then what played it, each with fresh ids.

    ``evidence`` is the session's evidence (any ``PlayedEvidence``: a Copilot runtime session's
    spans come from its ``runtime_trace``, a Copilot Studio target's from its turns), or a list
    of them (a pytest test that ran several); ``turn_index`` picks the case's prompt in the
    session, ``None`` takes every prompt. ``key`` names the case (default: its number and turn).
    """
    trace_id = secrets.randbits(128) or 1
    case_id = secrets.randbits(64) or 1
    end_ns = time.time_ns()
    played = list(evidence) if isinstance(evidence, list | tuple) else [evidence]
    ids = (trace_id, case_id, end_ns)
    children, sessions = _played_records(played, turn_index, ids, context.capture_content)
    if children:
        start_ns, end_ns = min(c.start_ns for c in children), max(c.end_ns for c in children)
    else:
        start_ns = end_ns - int((result.duration_ms or 0) * 1e6)
    key = key or f"{result.conversation_number}" + (f".{result.turn}" if (result.turn or 1) > 1 else "")
    status = result.effective_status
    case_span = SpanRecord(
        name=f"copilot_eval.case {key}",
        trace_id=trace_id,
        span_id=case_id,
        parent_id=None,
        start_ns=start_ns,
        end_ns=end_ns,
        attributes=_clean(_case_attributes(case, result, played, key, sessions, context), True),
        events=_evaluation_events(result, end_ns, context.capture_content),
        error=(redact(result.failure_reason) or "error") if status is CaseStatus.ERROR else None,
    )
    return [case_span, *children]


def _played_records(
    played: list[Any], turn_index: int | None, ids: tuple[int, int, int], capture_content: bool
) -> tuple[list[SpanRecord], list[str]]:
    """The spans of what played a case (under ``ids``: the trace, the case span, the case's end) and its sessions."""
    trace_id, case_id, end_ns = ids
    children: list[SpanRecord] = []
    sessions: list[str] = []
    for item in played:
        if item is None:
            continue
        if getattr(item, "kind", None) != STUDIO_KIND:  # a Copilot runtime session
            sessions.extend([item.session_id] if getattr(item, "session_id", None) else [])
            trace = item.runtime_trace
            if trace is None:
                continue
            session, groups = _prompt_groups(trace)
            if turn_index is None:
                mine = list(trace.spans)
            else:
                mine = (session if turn_index == 0 else []) + (groups[turn_index] if turn_index < len(groups) else [])
            version = getattr(item, "runtime_version", None)
            children += _runtime_records(mine, trace_id, case_id, capture_content, version)
        else:
            sessions.extend([item.conversation_id] if getattr(item, "conversation_id", None) else [])
            turns = range(len(getattr(item, "turns", []) or [])) if turn_index is None else [turn_index]
            for number in turns:
                children += _target_records(item, number, trace_id, case_id, end_ns, capture_content)
    return children, sessions


def _case_attributes(
    case: EvalTestCase | None,
    result: EvalCaseResult,
    played: list[Any],
    key: str,
    sessions: list[str],
    context: CaseContext,
) -> dict[str, Any]:
    """The case span's attributes: the case, its verdict, the surface, its session, usage and (when asked) texts."""
    status = result.effective_status
    attributes: dict[str, Any] = {
        "copilot_eval.test_set.name": context.test_set,
        "copilot_eval.case.key": key,
        "copilot_eval.case.conversation_number": result.conversation_number,
        "copilot_eval.case.turn": result.turn or 1,
        "copilot_eval.case.repeat": result.repeat_index,
        "copilot_eval.case.status": status.value,
        "copilot_eval.case.score": _case_score(result),
        "copilot_eval.case.reason": result.failure_reason,
        "copilot_eval.surface": context.surface,
        "gen_ai.agent.name": context.surface,
        "gen_ai.conversation.id": sessions[0] if len(sessions) == 1 else None,
    }
    copilot = [item for item in played if item is not None and getattr(item, "kind", None) != STUDIO_KIND]
    if len(copilot) == 1:
        # Known totals only: an unknown count is left out, never exported as 0. Not gen_ai.usage.*:
        # the chat spans beneath carry those, and a backend adding up a trace would count them twice.
        attributes["copilot_eval.usage.input_tokens"] = copilot[0].total_input_tokens
        attributes["copilot_eval.usage.output_tokens"] = copilot[0].total_output_tokens
    if copilot:
        attributes["copilot_eval.evidence_complete"] = all(getattr(item, "evidence_complete", True) for item in copilot)
    if context.capture_content:
        attributes["copilot_eval.case.question"] = case.question if case is not None else None
        attributes["copilot_eval.case.reference"] = case.response if case is not None else None
        attributes["copilot_eval.case.answer"] = result.actual_response
    return attributes
