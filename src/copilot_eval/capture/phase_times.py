"""Where a session's time went: the one place the runtime's spans are turned into time by phase.

The runtime times a session's start (``session.provisioning``, ``session.mcp_startup_wait``) and
its first prompt (``session.first_turn``) in ``session.timing.*`` spans, one per step; every model
call is a ``chat`` span, every tool call an ``execute_tool`` span, every permission decision the
runtime waits for a ``permission`` span. ``PhaseTimes`` documents what each phase holds.
"""

from __future__ import annotations

from collections.abc import Iterable

from copilot_eval.capture.trace_tree import TraceTree
from copilot_eval.evidence.phase_times import PhaseTimes
from copilot_eval.evidence.runtime_trace import RuntimeTrace, TraceSpan

_TIMING = "github.copilot.session.timing."
# Steps of session.first_turn that prepare the prompt's turn before its first model call.
CONTEXT_STEPS = frozenset(
    {"turn_preparation", "context_assembly", "turn_setup", "user_message_emission", "attempt_pre_request"}
)
# Steps of session.provisioning in which the runtime waits for the host (this process).
HOST_STEPS = frozenset({"host_callback"})


def _ms(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _segment_total(spans: Iterable[TraceSpan], name: str) -> float | None:
    totals = [_ms(s.attributes.get(_TIMING + "totalMs")) for s in spans if s.name == name]
    known = [t if t is not None else 0.0 for t in totals]
    return sum(known) if totals else None


def _union_ms(spans: Iterable[TraceSpan]) -> float:
    """Milliseconds covered by the spans' intervals, overlaps counted once (parallel tool calls)."""
    intervals = sorted((s.start_ns, s.end_ns) for s in spans if s.start_ns is not None and s.end_ns is not None)
    covered, current_start, current_end = 0, None, None
    for start, end in intervals:
        if current_end is None or start > current_end:
            if current_end is not None and current_start is not None:
                covered += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None and current_start is not None:
        covered += current_end - current_start
    return covered / 1e6


def runtime_phases(trace: RuntimeTrace) -> dict[str, float]:
    """Every ``session.timing.*`` step of the session, summed by its phase name (milliseconds)."""
    totals: dict[str, float] = {}
    phase_key, duration_key = _TIMING + "phase", _TIMING + "duration_ms"
    for span in trace.spans:
        attributes = span.attributes
        phase = attributes.get(phase_key)
        if phase is None:
            continue
        duration = _ms(attributes.get(duration_key))
        if isinstance(phase, str) and duration is not None:
            totals[phase] = totals.get(phase, 0.0) + duration
    return totals


def _steps(tree: TraceTree, segment: str, names: frozenset[str]) -> float:
    total = 0.0
    for span in tree.spans:
        parent = tree.by_id.get(span.parent_span_id or "")
        if parent is None or parent.name != segment:
            continue
        phase = span.attributes.get(_TIMING + "phase")
        if isinstance(phase, str) and phase in names:
            total += _ms(span.attributes.get(_TIMING + "duration_ms")) or 0.0
    return total


def phase_times(trace: RuntimeTrace | None, *, duration_ms: float | None, ended_ns: int | None) -> PhaseTimes | None:
    """The session's time by phase; ``None`` when there is no trace to read it from."""
    if trace is None or not trace.spans:
        return None
    tree = TraceTree(trace)
    provisioning = _segment_total(trace.spans, "session.provisioning")
    mcp_wait = _segment_total(trace.spans, "session.mcp_startup_wait")
    host_in_start = _steps(tree, "session.provisioning", HOST_STEPS) if provisioning is not None else 0.0
    session_start = None
    if provisioning is not None or mcp_wait is not None:
        session_start = max((provisioning or 0.0) + (mcp_wait or 0.0) - host_in_start, 0.0)
    context = (
        _steps(tree, "session.first_turn", CONTEXT_STEPS)
        if _segment_total(trace.spans, "session.first_turn") is not None
        else None
    )
    roots, chats, tools = (tree.top_level(op) for op in ("invoke_agent", "chat", "execute_tool"))
    permissions = [s for s in trace.spans if s.name == "permission"]
    permission_ms = _union_ms(permissions)
    host_callbacks = host_in_start + permission_ms
    model = _union_ms(chats) if roots else None
    tool_ms = max(_union_ms(tools) - permission_ms, 0.0) if roots else None
    last_end = max((s.end_ns for s in roots if s.end_ns is not None), default=None)
    closing = max((ended_ns - last_end) / 1e6, 0.0) if ended_ns is not None and last_end is not None else None
    named = [session_start, context, model, tool_ms, host_callbacks, closing]
    other = None
    if duration_ms is not None:
        other = max(duration_ms - sum(part or 0.0 for part in named), 0.0)
    return PhaseTimes(
        total_ms=duration_ms,
        session_start_ms=session_start,
        context_ms=context,
        model_ms=model,
        tools_ms=tool_ms,
        host_callbacks_ms=host_callbacks,
        closing_ms=closing,
        other_ms=other,
        runtime_phases=runtime_phases(trace),
    )


__all__ = ["CONTEXT_STEPS", "HOST_STEPS", "phase_times", "runtime_phases"]
