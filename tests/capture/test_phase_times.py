"""Time by phase, read from a real recorded trace (tests/capture/record_trace_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval.capture.phase_times import phase_times, runtime_phases
from copilot_eval.evidence import PhaseTimes
from copilot_eval.evidence.phase_times import PHASES
from copilot_eval.evidence.runtime_trace import RuntimeTrace

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def trace() -> RuntimeTrace:
    return RuntimeTrace.from_lines((DATA / "trace_tools.trace.jsonl").read_text(encoding="utf-8").splitlines())


def _ends(trace: RuntimeTrace) -> int:
    return max(s.end_ns for s in trace.spans if s.operation == "invoke_agent" and s.end_ns is not None)


def test_each_phase_comes_from_its_own_spans(trace):
    times = phase_times(trace, duration_ms=2000.0, ended_ns=_ends(trace) + 7_000_000)
    assert times is not None
    # provisioning 177 ms + MCP start-up wait 21 ms, less the 68 ms the runtime waited for us inside it
    assert times.session_start_ms == 177 + 21 - 68
    # the recorded permission decisions (16 + 2 + 6 ms) plus that session-creation callback
    assert times.host_callbacks_ms == pytest.approx(68 + 16 + 2 + 6)
    assert times.model_ms == pytest.approx(13 + 16 + 11 + 161 + 11)  # the five chat spans, two prompts
    assert times.tools_ms == pytest.approx(44 + 20 + 44 - (16 + 2 + 6))  # tool calls less their permissions
    assert times.closing_ms == pytest.approx(7.0)
    assert times.context_ms is not None and times.context_ms >= 38  # turn_preparation alone took 38 ms
    named = [times.session_start_ms, times.context_ms, times.model_ms, times.tools_ms, times.host_callbacks_ms, 7.0]
    assert times.other_ms == pytest.approx(2000.0 - sum(named))
    assert list(times.by_phase()) == list(PHASES)


def test_the_runtimes_own_steps_are_kept_by_name_for_finer_questions(trace):
    steps = runtime_phases(trace)
    assert steps["host_callback"] == 68 and steps["turn_preparation"] == 38
    assert len(steps) > 40  # some sixty steps of session start and first turn


def test_what_the_trace_cannot_say_stays_unknown(trace):
    assert phase_times(None, duration_ms=100.0, ended_ns=None) is None
    assert phase_times(RuntimeTrace(spans=[]), duration_ms=100.0, ended_ns=None) is None
    times = phase_times(trace, duration_ms=None, ended_ns=None)
    assert (
        isinstance(times, PhaseTimes) and times.closing_ms is None and times.other_ms is None and times.total_ms is None
    )
    steps_only = RuntimeTrace(spans=[s for s in trace.spans if s.name.startswith("session.")])
    partial = phase_times(steps_only, duration_ms=100.0, ended_ns=None)
    assert partial is not None and partial.model_ms is None and partial.tools_ms is None  # no prompt in the trace
