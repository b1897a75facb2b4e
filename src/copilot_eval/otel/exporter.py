"""Send case traces to an OTLP/HTTP collector, off the run's path, with a bounded end.

Built on opentelemetry-sdk and its OTLP/HTTP exporter (the ``[otel]`` extra), imported when an
export is asked for. Each finished case is queued and sent by one worker thread while the run goes
on. A collector that does not answer costs at most one export's timeout, then nothing more: the
first failure stops the export and becomes one warning (the SDK's own retry log lines are kept
out), and ``close`` waits at most ``flush_s`` for what is still queued.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Sequence
from typing import Any

from copilot_eval.otel.records import CaseContext, SpanRecord, case_trace
from copilot_eval.otel.settings import OtelSettings

# OpenTelemetry is imported inside the functions that export: it is the optional [otel] extra, and `import
# copilot_eval.otel` must work without it.

__all__ = ["MISSING_EXTRA", "RunExporter", "records_to_spans"]

MISSING_EXTRA = "the OpenTelemetry export needs the otel extra: pip install 'copilot-eval[otel]'"
log = logging.getLogger("copilot_eval.otel")
# A logger's filter sees only what is logged on that very logger, so each one the exporter logs on is named.
_SDK_LOGGERS = (
    "opentelemetry.exporter.otlp.proto.http.trace_exporter",
    "opentelemetry.exporter.otlp.proto.http",
    "opentelemetry.exporter.otlp.common.http",
    "opentelemetry.sdk.trace.export",
)


class _OnlyOtherThreads(logging.Filter):
    """Keeps the SDK's log lines about our worker's exports out: their failure is our one warning."""

    def __init__(self, worker: threading.Thread) -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        return threading.current_thread() is not self.worker


def records_to_spans(records: Sequence[SpanRecord], *, own_resource: Any = None) -> list[Any]:
    """The SDK's ``ReadableSpan`` of each record (its ids, parent, times, attributes, events, status)."""
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import Event, ReadableSpan
    from opentelemetry.sdk.util.instrumentation import InstrumentationScope
    from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

    ours = own_resource or Resource.create({"service.name": "copilot-eval"})
    resources: dict[tuple[tuple[str, Any], ...], Any] = {}
    spans = []
    for record in records:
        context = SpanContext(record.trace_id, record.span_id, is_remote=False, trace_flags=TraceFlags(1))
        parent = (
            SpanContext(record.trace_id, record.parent_id, is_remote=False, trace_flags=TraceFlags(1))
            if record.parent_id is not None
            else None
        )
        if record.resource is None:
            resource = ours
        else:
            key = tuple(sorted(record.resource.items()))
            resource = resources.setdefault(key, Resource(dict(record.resource)))
        status = Status(StatusCode.ERROR, record.error) if record.error is not None else Status(StatusCode.UNSET)
        spans.append(
            ReadableSpan(
                name=record.name,
                context=context,
                parent=parent,
                resource=resource,
                attributes=record.attributes,
                events=[Event(name, attributes, timestamp=at) for name, at, attributes in record.events],
                kind=SpanKind(record.kind) if record.kind in (0, 1, 2, 3, 4) else SpanKind.INTERNAL,
                status=status,
                start_time=record.start_ns,
                end_time=record.end_ns,
                instrumentation_scope=InstrumentationScope(record.scope),
            )
        )
    return spans


class RunExporter:
    """Exports each graded case of a run as one trace; ``close()`` ends it and says what went wrong."""

    def __init__(
        self, settings: OtelSettings, *, test_set: str, surface: str | None = None, span_exporter: Any = None
    ) -> None:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.resources import Resource
        except ImportError as error:
            raise RuntimeError(MISSING_EXTRA) from error
        self.settings = settings
        self.context = CaseContext(test_set=test_set, surface=surface, capture_content=settings.capture_content)
        self._exporter = span_exporter or OTLPSpanExporter(
            endpoint=settings.endpoint, headers=dict(settings.headers), timeout=max(1, int(settings.flush_s))
        )
        self._resource = Resource.create(
            {"service.name": "copilot-eval"}
        )  # OTEL_SERVICE_NAME and _RESOURCE_ATTRIBUTES apply
        self._queue: queue.Queue[list[SpanRecord] | None] = queue.Queue()
        self.problem: str | None = None
        self.exported_traces = 0
        self._worker = threading.Thread(target=self._work, name="copilot-eval-otel", daemon=True)
        self._filter = _OnlyOtherThreads(self._worker)
        for name in _SDK_LOGGERS:
            logging.getLogger(name).addFilter(self._filter)
        self._worker.start()
        self._closed = False

    def export_case(
        self,
        case: Any,
        result: Any,
        evidence: Any,
        *,
        turn_index: int | None,
        key: str | None = None,
        test_set: str | None = None,
    ) -> None:
        """Queue one graded case (its result, and the evidence of the session that played it)."""
        if self._closed or self.problem is not None:
            return
        context = dataclasses.replace(self.context, test_set=test_set) if test_set else self.context
        try:
            records = case_trace(case, result, evidence, turn_index=turn_index, context=context, key=key)
        except Exception as error:  # a record we cannot build costs its trace, never the run
            self._fail(f"could not build the trace of case {getattr(result, 'conversation_number', '?')}: {error}")
            return
        self._queue.put(records)

    def _fail(self, problem: str) -> None:
        if self.problem is None:
            self.problem = problem
            log.warning("copilot-eval: OpenTelemetry export to %s stopped: %s", self.settings.endpoint, problem)

    def _work(self) -> None:
        from opentelemetry.sdk.trace.export import SpanExportResult

        while True:
            records = self._queue.get()
            if records is None:
                return
            if self.problem is not None:
                continue  # the collector failed once: the rest is dropped, not retried into the run's end
            try:
                outcome = self._exporter.export(records_to_spans(records, own_resource=self._resource))
            except Exception as error:
                self._fail(f"{type(error).__name__}: {error}")
                continue
            if outcome is SpanExportResult.SUCCESS:
                self.exported_traces += 1
            else:
                self._fail(f"the collector did not take the spans ({self.settings.endpoint} did not answer or refused)")

    def close(self) -> str | None:
        """Send what is queued, waiting at most ``flush_s``; the problem that stopped the export, if any."""
        if self._closed:
            return self.problem
        self._closed = True
        self._queue.put(None)
        deadline = time.monotonic() + self.settings.flush_s
        self._worker.join(max(deadline - time.monotonic(), 0))
        if self._worker.is_alive():
            self._fail(f"the collector had not taken every trace after {self.settings.flush_s:g} s")
        try:
            self._exporter.shutdown()
        except Exception:
            pass
        if not self._worker.is_alive():
            # A worker still waiting on a silent collector keeps its filter: its late failure is
            # the warning already given, not a second one (the filter touches that thread only).
            for name in _SDK_LOGGERS:
                logging.getLogger(name).removeFilter(self._filter)
        return self.problem
