"""The runtime's own OpenTelemetry trace of one session: a second witness beside the event stream.

The Copilot runtime, started with its file exporter on, writes one JSON line per finished span
(``invoke_agent``, ``chat <model>``, ``execute_tool <name>``, ``session.timing.*`` ...). The
runtime pool reads that file and hands each run the spans of its own session; this module is
only the record of them. Times are nanoseconds since the Unix epoch, as the runtime wrote them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from pydantic import BaseModel, Field

SpanStatus = Literal["unset", "ok", "error"]
_STATUS_CODES: dict[int, SpanStatus] = {0: "unset", 1: "ok", 2: "error"}


def _span_status(code: object) -> SpanStatus:
    """The status an OTLP status code names; ``unset`` for anything that is no known code (a list, a string)."""
    return _STATUS_CODES.get(code, "unset") if isinstance(code, int) else "unset"


class TraceSpanEvent(BaseModel):
    """A timestamped event recorded on a span (a user message, an exception)."""

    name: str
    time_ns: int | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)


class TraceSpan(BaseModel):
    """One span as the runtime exported it: names, ids, parent, times, status and attributes."""

    name: str
    trace_id: str
    span_id: str
    parent_span_id: str | None = None
    kind: int | None = None  # OpenTelemetry's SpanKind number (0 internal, 2 client, ...)
    start_ns: int | None = None
    end_ns: int | None = None
    status: SpanStatus = "unset"
    status_message: str | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)
    events: list[TraceSpanEvent] = Field(default_factory=list)
    scope: str | None = None  # instrumentation scope, "github.copilot"

    @property
    def operation(self) -> str | None:
        """``gen_ai.operation.name`` (``invoke_agent``, ``chat``, ``execute_tool``), when set."""
        value = self.attributes.get("gen_ai.operation.name")
        return value if isinstance(value, str) else None

    @property
    def duration_ms(self) -> float | None:
        """End minus start in milliseconds; ``None`` when either is unknown."""
        if self.start_ns is None or self.end_ns is None:
            return None
        return (self.end_ns - self.start_ns) / 1e6

    def to_line(self) -> dict[str, Any]:
        """The span in the shape of the runtime's file exporter (what ``from_line`` reads back)."""
        line: dict[str, Any] = {
            "type": "span",
            "traceId": self.trace_id,
            "spanId": self.span_id,
            "name": self.name,
            "kind": self.kind,
            "startTime": _split_ns(self.start_ns),
            "endTime": _split_ns(self.end_ns),
            "attributes": self.attributes,
            "status": {"code": {"unset": 0, "ok": 1, "error": 2}[self.status]},
            "events": [{"name": e.name, "time": _split_ns(e.time_ns), "attributes": e.attributes} for e in self.events],
            "instrumentationScope": {"name": self.scope} if self.scope else None,
        }
        if self.parent_span_id:
            line["parentSpanId"] = self.parent_span_id
        if self.status_message:
            line["status"]["message"] = self.status_message
        return line

    @classmethod
    def from_line(cls, line: dict[str, Any]) -> TraceSpan | None:
        """A span from one parsed line of the runtime's file exporter; ``None`` for anything else
        (metrics, a line without ids)."""
        if line.get("type") != "span" or not line.get("spanId") or not line.get("traceId"):
            return None
        raw_status = line.get("status")
        status: dict[str, Any] = raw_status if isinstance(raw_status, dict) else {}
        scope = line.get("instrumentationScope")
        attributes = line.get("attributes")
        # Built without validation: every field is checked or coerced here, and a session has a few
        # hundred spans (validating them cost about 7 ms a run, most of what reading the trace costs).
        return cls.model_construct(
            name=str(line.get("name") or ""),
            trace_id=str(line["traceId"]),
            span_id=str(line["spanId"]),
            parent_span_id=str(line["parentSpanId"]) if line.get("parentSpanId") else None,
            kind=line.get("kind") if isinstance(line.get("kind"), int) else None,
            start_ns=_join_ns(line.get("startTime")),
            end_ns=_join_ns(line.get("endTime")),
            status=_span_status(status.get("code")),
            status_message=str(status["message"]) if status.get("message") else None,
            attributes=dict(attributes) if isinstance(attributes, dict) else {},
            events=[
                TraceSpanEvent.model_construct(
                    name=str(event.get("name") or ""),
                    time_ns=_join_ns(event.get("time")),
                    attributes=dict(event["attributes"]) if isinstance(event.get("attributes"), dict) else {},
                )
                for event in line.get("events") or []
                if isinstance(event, dict)
            ],
            scope=str(scope["name"]) if isinstance(scope, dict) and scope.get("name") else None,
        )


def _join_ns(value: Any) -> int | None:
    """``[seconds, nanoseconds]`` (the exporter's HrTime) or a number of nanoseconds, as nanoseconds."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(part, int) for part in value):
        return int(value[0]) * 1_000_000_000 + int(value[1])
    if isinstance(value, int):
        return value
    return None


def _split_ns(value: int | None) -> list[int] | None:
    return None if value is None else [value // 1_000_000_000, value % 1_000_000_000]


class RuntimeTrace(BaseModel):
    """The spans the runtime exported for one session, in the order it wrote them.

    ``complete`` is false when the run ended before the runtime had written the span that closes
    each prompt's ``invoke_agent`` (a dead runtime, a timeout). ``content_captured`` says whether
    message content, tool arguments and results were recorded (``capture_trace_content``); without
    it the runtime leaves them out and names the agent's own tools by a SHA-256 of their name.
    """

    spans: list[TraceSpan] = Field(default_factory=list)
    complete: bool = True
    content_captured: bool = False
    file: str | None = Field(
        default=None, description="Where the spans were saved, beside the evidence JSON (set in saved files)."
    )

    def named(self, prefix: str) -> list[TraceSpan]:
        """The spans whose name is ``prefix`` or starts with ``prefix`` and a space (``chat`` -> ``chat gpt-4.1``)."""
        return [s for s in self.spans if s.name == prefix or s.name.startswith(prefix + " ")]

    def by_id(self) -> dict[str, TraceSpan]:
        """Every span by its span id."""
        return {span.span_id: span for span in self.spans}

    def ancestors(self, span: TraceSpan) -> Iterator[TraceSpan]:
        """The span's parent, its parent's parent, ... as far as they were recorded."""
        index = self.by_id()
        seen: set[str] = set()
        parent = index.get(span.parent_span_id or "")
        while parent is not None and parent.span_id not in seen:
            seen.add(parent.span_id)
            yield parent
            parent = index.get(parent.parent_span_id or "")

    def redacted(self, scrub: Any) -> RuntimeTrace:
        """This trace with ``scrub`` (a deep redactor that copies only what changes) applied to every
        span's name, status message, attributes and events; itself when nothing changes.

        One call over all spans: a clean trace costs one scan, and only a span holding a secret is copied.
        """
        parts = [[s.name, s.status_message, s.attributes, [e.attributes for e in s.events]] for s in self.spans]
        scrubbed = scrub(parts)
        if scrubbed is parts:
            return self
        spans = []
        for span, old, new in zip(self.spans, parts, scrubbed, strict=True):
            if new is old:
                spans.append(span)
                continue
            name, message, attributes, event_attributes = new
            events = [
                event if a is event.attributes else event.model_copy(update={"attributes": a})
                for event, a in zip(span.events, event_attributes, strict=True)
            ]
            update = {"name": name, "status_message": message, "attributes": attributes, "events": events}
            spans.append(span.model_copy(update=update))
        return self.model_copy(update={"spans": spans})

    def to_lines(self) -> Iterable[str]:
        """One JSON line per span, in the runtime's file-exporter shape."""
        for span in self.spans:
            yield json.dumps(span.to_line(), ensure_ascii=False)

    @classmethod
    def from_lines(cls, lines: Iterable[str], **fields: Any) -> RuntimeTrace:
        """A trace from JSON lines of the runtime's file exporter (other lines are skipped)."""
        spans = []
        for text in lines:
            text = text.strip()
            if not text:
                continue
            parsed = json.loads(text)
            span = TraceSpan.from_line(parsed) if isinstance(parsed, dict) else None
            if span is not None:
                spans.append(span)
        return cls(spans=spans, **fields)


__all__ = ["RuntimeTrace", "SpanStatus", "TraceSpan", "TraceSpanEvent"]
