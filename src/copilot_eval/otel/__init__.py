"""OpenTelemetry export of runs: each graded case as one trace, for the observability stack a team runs.

``resolve_otel_settings`` reads ``--otel-endpoint`` (or the standard OTLP variables), ``RunExporter``
sends the cases; see docs/otel.md for what each span and record holds.
"""

from copilot_eval.otel.exporter import MISSING_EXTRA, RunExporter
from copilot_eval.otel.records import CONTENT_ATTRIBUTES, CaseContext, SpanRecord, case_trace
from copilot_eval.otel.settings import DEFAULT_FLUSH_S, OtelSettings, OtelSettingsError, resolve_otel_settings

__all__ = [
    "CONTENT_ATTRIBUTES",
    "DEFAULT_FLUSH_S",
    "MISSING_EXTRA",
    "CaseContext",
    "OtelSettings",
    "OtelSettingsError",
    "RunExporter",
    "SpanRecord",
    "case_trace",
    "resolve_otel_settings",
]
