"""The runtime trace as a tree, computed once: each span's operation and its nearest ``invoke_agent``
and ``execute_tool`` ancestors (the cross-check and the time by phase both ask this of every span)."""

from __future__ import annotations

from dataclasses import dataclass

from copilot_eval.evidence.runtime_trace import RuntimeTrace, TraceSpan

_OPERATIONS = ("invoke_agent", "execute_tool", "chat")


def _operation(span: TraceSpan) -> str | None:
    value = span.attributes.get("gen_ai.operation.name")
    if isinstance(value, str):
        return value
    head = span.name.split(" ", 1)[0]
    return head if head in _OPERATIONS else None


@dataclass(frozen=True)
class SpanPlace:
    """Where a span sits: its operation, and the span ids of its nearest agent and tool above it."""

    operation: str | None
    agent: str | None  # nearest invoke_agent ancestor
    tool: str | None  # nearest execute_tool ancestor


class TraceTree:
    """Every span of a trace with its place, in start order."""

    def __init__(self, trace: RuntimeTrace) -> None:
        self.spans = sorted(trace.spans, key=lambda s: s.start_ns or 0)
        self.by_id = {span.span_id: span for span in self.spans}
        self.places: dict[str, SpanPlace] = {}
        for span in self.spans:
            self._place(span)

    def _place(self, span: TraceSpan) -> SpanPlace:
        known = self.places.get(span.span_id)
        if known is not None:
            return known
        chain: list[TraceSpan] = []
        seen: set[str] = set()
        current: TraceSpan | None = span
        while current is not None and current.span_id not in self.places and current.span_id not in seen:
            chain.append(current)
            seen.add(current.span_id)
            current = self.by_id.get(current.parent_span_id or "")
        # Back down from the highest span not yet placed: each one's parent is placed by then.
        for node in reversed(chain):
            parent = self.by_id.get(node.parent_span_id or "")
            place = self.places.get(parent.span_id) if parent is not None else None
            if parent is None or place is None:
                self.places[node.span_id] = SpanPlace(_operation(node), None, None)
                continue
            agent = parent.span_id if place.operation == "invoke_agent" else place.agent
            tool = parent.span_id if place.operation == "execute_tool" else place.tool
            self.places[node.span_id] = SpanPlace(_operation(node), agent, tool)
        return self.places[span.span_id]

    def of(self, operation: str) -> list[TraceSpan]:
        """The spans of one operation, in start order."""
        return [span for span in self.spans if self.places[span.span_id].operation == operation]

    def top_level(self, operation: str) -> list[TraceSpan]:
        """The spans of one operation that are not inside a tool call (not a subagent's work)."""
        return [span for span in self.of(operation) if self.places[span.span_id].tool is None]


__all__ = ["SpanPlace", "TraceTree"]
