"""The runtime's OpenTelemetry file exporter: switched on for every pooled runtime, read per session.

A runtime started with ``COPILOT_OTEL_ENABLED=true``, ``COPILOT_OTEL_EXPORTER_TYPE=file`` and
``COPILOT_OTEL_FILE_EXPORTER_PATH`` appends one JSON line per span as the span ends (and metric
lines now and then). Measured on runtime 1.0.102: by the time the root ``session.idle`` reaches
us, the session's spans are in the file except, now and then, the ``invoke_agent`` span that
closes the prompt, which follows within a few milliseconds (17 ms was the longest of 30 runs).

One runtime serves many sessions at once, so one file holds them all. ``TraceFileReader`` reads
it incrementally (from the last offset, whole lines only) and sorts the spans by session: a span
carries ``gen_ai.conversation.id`` (the session id) or descends from one that does (the
``session.timing.*`` steps are children of a segment span that names the session, and are written
before it). Trace ids are not used: a caller's own OpenTelemetry context, which the SDK passes on,
can put several sessions into one trace. The file lives in the runtime's own home folder and goes with it.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import OrderedDict, deque
from pathlib import Path

from copilot_eval.evidence.runtime_trace import RuntimeTrace, TraceSpan

__all__ = [
    "TRACE_ENV",
    "TRACE_FILE_NAME",
    "TRACE_SETTLE_S",
    "TraceFileReader",
    "collect_session_trace",
    "trace_enabled",
    "trace_environment",
]

TRACE_FILE_NAME = "otel-trace.jsonl"
TRACE_ENV = "COPILOT_EVAL_RUNTIME_TRACE"
"""``0`` / ``off`` starts runtimes without the file exporter (their runs then have no trace)."""
TRACE_SETTLE_S = 0.25
"""How long a run waits, at most, for the runtime to write the span that closes its last prompt."""
_POLL_S = 0.005
_MAX_PENDING_SPANS = 20_000  # spans of traces no session has claimed yet; the oldest go first
_CONVERSATION = "gen_ai.conversation.id"


def trace_enabled() -> bool:
    """Whether runtimes are started with the file exporter (env ``COPILOT_EVAL_RUNTIME_TRACE``, default on)."""
    return os.environ.get(TRACE_ENV, "1").strip().lower() not in ("0", "off", "false", "no")


def trace_environment(path: Path, *, capture_content: bool) -> dict[str, str]:
    """The variables that make a runtime write its spans to ``path``; content only when asked.

    They override whatever the caller's environment says about the runtime's telemetry (an OTLP
    endpoint of the user's own included): copilot-eval exports the runs itself (``--otel-endpoint``).
    """
    return {
        "COPILOT_OTEL_ENABLED": "true",
        "COPILOT_OTEL_EXPORTER_TYPE": "file",
        "COPILOT_OTEL_FILE_EXPORTER_PATH": str(path),
        "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true" if capture_content else "false",
    }


class TraceFileReader:
    """Reads one runtime's trace file as it grows and hands each session its own spans."""

    def __init__(self, path: Path, *, content_captured: bool = False) -> None:
        self.path = path
        self.content_captured = content_captured
        self._offset = 0
        self._tail = b""  # a line the runtime had not finished writing
        self._session_of_span: dict[str, str] = {}
        self._pending: OrderedDict[str, list[TraceSpan]] = OrderedDict()  # parent span id -> spans, no session yet
        self._pending_count = 0
        self._sessions: dict[str, list[TraceSpan]] = {}
        self._taken: deque[str] = deque(maxlen=1000)  # sessions already handed out: late spans are dropped
        self.unreadable_lines = 0

    def read_new(self) -> None:
        """Read what the runtime appended since the last call and sort its spans by session."""
        try:
            with self.path.open("rb") as handle:
                handle.seek(self._offset)
                data = handle.read()
        except FileNotFoundError:
            return
        if not data:
            return
        self._offset += len(data)
        data = self._tail + data
        lines = data.split(b"\n")
        self._tail = lines.pop()  # empty when the data ended with a newline
        for raw in lines:
            if raw.strip():
                self._add_line(raw)

    def _add_line(self, raw: bytes) -> None:
        try:
            parsed = json.loads(raw)
        except ValueError:
            self.unreadable_lines += 1
            return
        span = TraceSpan.from_line(parsed) if isinstance(parsed, dict) else None
        if span is None:
            return  # a metric line, or something that is not a span
        named = span.attributes.get(_CONVERSATION)
        session = named if isinstance(named, str) and named else self._session_of_span.get(span.parent_span_id or "")
        if session is None:
            # A step written before the span it belongs to (children end first): wait for its parent.
            self._pending.setdefault(span.parent_span_id or "", []).append(span)
            self._pending_count += 1
            while self._pending_count > _MAX_PENDING_SPANS and self._pending:
                _, dropped = self._pending.popitem(last=False)
                self._pending_count -= len(dropped)
            return
        self._file(session, span)

    def _file(self, session: str, span: TraceSpan) -> None:
        waiting = [span]
        while waiting:
            current = waiting.pop()
            if session not in self._taken:
                self._sessions.setdefault(session, []).append(current)
                self._session_of_span[current.span_id] = session
            children = self._pending.pop(current.span_id, [])
            self._pending_count -= len(children)
            waiting.extend(children)

    def spans_of(self, session_id: str) -> list[TraceSpan]:
        """The spans read so far for one session (not removed)."""
        return list(self._sessions.get(session_id, ()))

    def take(self, session_id: str) -> list[TraceSpan]:
        """The session's spans, removed from the reader; later spans of that session are dropped."""
        self._taken.append(session_id)
        spans = self._sessions.pop(session_id, [])
        for span in spans:
            self._session_of_span.pop(span.span_id, None)
        return spans


def _closed_prompts(spans: list[TraceSpan]) -> int:
    by_id = {span.span_id: span for span in spans}
    return sum(1 for span in spans if span.operation == "invoke_agent" and by_id.get(span.parent_span_id or "") is None)


async def collect_session_trace(
    reader: TraceFileReader | None, session_id: str, *, prompts_sent: int, settle_s: float = TRACE_SETTLE_S
) -> RuntimeTrace | None:
    """The session's spans once the runtime has written one ``invoke_agent`` per prompt sent (or
    ``settle_s`` passed: the trace is then marked incomplete); ``None`` when it wrote none."""
    if reader is None:
        return None
    deadline = time.monotonic() + settle_s
    reader.read_new()
    while _closed_prompts(reader.spans_of(session_id)) < prompts_sent and time.monotonic() < deadline:
        await asyncio.sleep(_POLL_S)
        reader.read_new()
    complete = _closed_prompts(reader.spans_of(session_id)) >= prompts_sent
    spans = reader.take(session_id)
    if not spans:
        return None
    return RuntimeTrace(spans=spans, complete=complete, content_captured=reader.content_captured)
