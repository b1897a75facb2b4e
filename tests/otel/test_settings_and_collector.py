"""Where the export goes (options and the standard OTLP variables) and what a dead collector costs (fast)."""

from __future__ import annotations

import json
import logging
import socket
import time
from pathlib import Path

import pytest

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, GradeRecord
from copilot_eval.evidence.runtime_trace import RuntimeTrace
from copilot_eval.otel import OtelSettings, OtelSettingsError, RunExporter, resolve_otel_settings
from copilot_eval.redaction import redact

DATA = Path(__file__).parents[1] / "capture" / "data"


def test_an_explicit_endpoint_wins_and_gets_the_traces_path():
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://elsewhere:4318"}
    settings = resolve_otel_settings("http://127.0.0.1:6006", environ=env)
    assert settings is not None and settings.endpoint == "http://127.0.0.1:6006/v1/traces"
    assert resolve_otel_settings("http://h:4318/v1/traces/", environ={}).endpoint == "http://h:4318/v1/traces"


def test_the_standard_variables_switch_the_export_on_and_carry_headers():
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": "https://cloud.example/api/public/otel",
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Basic%20cGstbGYtMTIzNDU2Nzg5,x-project=evals",
    }
    settings = resolve_otel_settings(None, environ=env)
    assert settings is not None and settings.endpoint == "https://cloud.example/api/public/otel/v1/traces"
    assert settings.headers == {"Authorization": "Basic cGstbGYtMTIzNDU2Nzg5", "x-project": "evals"}
    assert "cGstbGYtMTIzNDU2Nzg5" not in redact("sent Basic cGstbGYtMTIzNDU2Nzg5")  # a header's value is a secret
    traces = {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://h:4318/custom/path", **env}
    assert resolve_otel_settings(None, environ=traces).endpoint == "http://h:4318/custom/path"  # used as given
    assert resolve_otel_settings(None, environ={}) is None  # nothing asks: no export


@pytest.mark.parametrize("switch", [{"OTEL_SDK_DISABLED": "true"}, {"OTEL_TRACES_EXPORTER": "none"}])
def test_the_standard_off_switches_win(switch):
    assert resolve_otel_settings("http://127.0.0.1:6006", environ=switch) is None


def test_a_bad_endpoint_or_header_names_the_option_or_variable():
    with pytest.raises(OtelSettingsError, match=r"--copilot-otel-endpoint: 'localhost:6006' is not an http\(s\) URL"):
        resolve_otel_settings("localhost:6006", option="--copilot-otel-endpoint", environ={})
    bad = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://h:4318", "OTEL_EXPORTER_OTLP_HEADERS": "novalue"}
    with pytest.raises(OtelSettingsError, match=r"OTEL_EXPORTER_OTLP_HEADERS: 'novalue'\.\.\. is not key=value"):
        resolve_otel_settings(None, environ=bad)


def _case() -> tuple[EvalCaseResult, object]:
    events = [json.loads(line) for line in (DATA / "trace_tools.events.jsonl").read_text().splitlines() if line]
    trace = RuntimeTrace.from_lines((DATA / "trace_tools.trace.jsonl").read_text().splitlines())
    played = result_from_events(events, facts=RunFacts(runtime_trace=trace, duration_ms=800.0))
    grade = GradeRecord(method="Exact match", status=CaseStatus.PASS, score=100.0)
    return EvalCaseResult(conversation_number=1, passed=True, status=CaseStatus.PASS, grades=[grade]), played


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("collector", ["nothing listens", "listens and never answers"])
def test_a_dead_collector_costs_a_bounded_flush_and_one_warning(collector, caplog):
    port = _free_port()
    silent = None
    if collector == "listens and never answers":
        silent = socket.socket()
        silent.bind(("127.0.0.1", port))
        silent.listen(16)
    try:
        settings = OtelSettings(endpoint=f"http://127.0.0.1:{port}/v1/traces", flush_s=1.0)
        exporter = RunExporter(settings, test_set="orders")
        result, played = _case()
        caplog.set_level(logging.DEBUG)
        started = time.monotonic()
        for _ in range(5):
            exporter.export_case(None, result, played, turn_index=0)
        queued = time.monotonic() - started
        problem = exporter.close()
        took = time.monotonic() - started
    finally:
        if silent is not None:
            silent.close()
    assert queued < 0.5  # the run never waits for the collector while it plays
    assert took < settings.flush_s + 2.5, f"closing took {took:.1f} s"
    assert problem is not None and exporter.exported_traces == 0
    exporter._worker.join(10)  # the silent collector's late failure, too, must stay out of the logs
    ours = [r for r in caplog.records if r.name == "copilot_eval.otel"]
    assert len(ours) == 1 and ours[0].levelno == logging.WARNING and str(port) in ours[0].getMessage()
    assert not [r for r in caplog.records if r.name.startswith("opentelemetry") and r.levelno >= logging.WARNING]
