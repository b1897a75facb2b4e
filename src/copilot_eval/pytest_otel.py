"""pytest with ``--copilot-otel-endpoint``: every test that ran an agent exported as one OpenTelemetry trace.

The case span is the test (its node id, its outcome as pass / fail / error / unknown), the runtime's
spans of each run it made beneath it, and one ``gen_ai.evaluation.result`` record: the test's own
verdict (``pytest``), or for a test-set item each grader's. The standard OTLP variables are honoured
(see ``otel.settings``). A collector that fails is one line at the end of the session.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, GradeRecord

# The plugin imports this module in every pytest session; the otel package is imported only for an export (marked "on
# use").

__all__ = ["EXPORTER_KEY", "add_otel_options", "close_export", "configure_export", "export_test", "note_run"]

EXPORTER_KEY = pytest.StashKey[Any]()  # the RunExporter of the session, or None
_RUNS_KEY = pytest.StashKey[list[Any]]()  # the evidence of the runs a test made


def add_otel_options(group: Any) -> None:
    """The export's options, in the plugin's group."""
    group.addoption(
        "--copilot-otel-endpoint",
        default=None,
        metavar="URL",
        help="export each test that ran an agent as an OpenTelemetry trace to this OTLP/HTTP collector "
        "(/v1/traces is appended; default OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT; needs the otel extra)",
    )
    group.addoption(
        "--copilot-otel-capture-content",
        action="store_true",
        default=False,
        help="with the export: send message content too (questions, answers, tool arguments and results), redacted",
    )


def configure_export(config: pytest.Config) -> None:
    """Start the session's exporter when an endpoint option or variable asks for one (controller and workers alike)."""
    config.stash[EXPORTER_KEY] = None
    endpoint_variables = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    if not config.getoption("--copilot-otel-endpoint", default=None) and not any(
        map(os.environ.get, endpoint_variables)
    ):
        return  # nothing asks for an export: the export's modules stay unloaded
    # on use, only with an export: the otel package
    from copilot_eval.otel import OtelSettingsError, RunExporter, resolve_otel_settings

    try:
        settings = resolve_otel_settings(
            config.getoption("--copilot-otel-endpoint", default=None),
            capture_content=bool(config.getoption("--copilot-otel-capture-content", default=False)),
            option="--copilot-otel-endpoint",
        )
    except OtelSettingsError as exc:
        raise pytest.UsageError(str(exc)) from None
    if settings is None:
        config.stash[EXPORTER_KEY] = None
        return
    try:
        config.stash[EXPORTER_KEY] = RunExporter(settings, test_set=config.rootpath.name)
    except RuntimeError as exc:  # the otel extra is not installed
        raise pytest.UsageError(f"--copilot-otel-endpoint: {exc}") from None


def note_run(node: Any, result: Any) -> None:
    """Remember a run a test made, for its trace."""
    if node.config.stash.get(EXPORTER_KEY, None) is not None:
        node.stash.setdefault(_RUNS_KEY, []).append(result)


def _verdict(report: pytest.TestReport) -> tuple[Any, str | None]:
    if report.passed:
        return CaseStatus.PASS, None
    if report.skipped:
        return CaseStatus.UNKNOWN, "skipped"
    text = str(report.longrepr).strip().splitlines()[-1] if report.longrepr else None
    if report.when != "call":
        return CaseStatus.ERROR, text  # a fixture or setup broke: not a verdict on the agent
    return CaseStatus.FAIL, text


def export_test(item: pytest.Item, report: pytest.TestReport) -> None:
    """After a test's call (or a failed setup): its trace, when it ran an agent."""
    exporter = item.config.stash.get(EXPORTER_KEY, None)
    runs = item.stash.get(_RUNS_KEY, None)
    if exporter is None or not runs or getattr(item, "exports_itself", False):
        return
    status, reason = _verdict(report)
    grade = GradeRecord(method="pytest", status=status, explanation=reason)
    result = EvalCaseResult(
        conversation_number=1,
        passed=status.value == "pass",
        status=status,
        failure_reason=reason,
        grades=[grade],
        duration_ms=report.duration * 1000,
    )
    exporter.export_case(None, result, list(runs), turn_index=None, key=item.nodeid)
    item.stash[_RUNS_KEY] = []


def close_export(config: pytest.Config) -> str | None:
    """End the session's export (bounded); the line to print when the collector failed."""
    exporter = config.stash.get(EXPORTER_KEY, None)
    if exporter is None:
        return None
    problem = exporter.close()
    if problem is None:
        return None
    return f"copilot-eval: OpenTelemetry export to {exporter.settings.endpoint} stopped: {problem}"
