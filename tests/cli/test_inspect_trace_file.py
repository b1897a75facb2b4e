"""`inspect` given the runtime's trace file (x.trace.jsonl) reads the evidence it belongs to, or says what it is."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evidence import CopilotResult

TRACE = Path(__file__).parents[1] / "capture" / "data" / "trace_tools.trace.jsonl"


def test_a_trace_alone_is_refused_saying_what_it_is(tmp_path):
    trace = tmp_path / "case1-r0.trace.jsonl"
    shutil.copy(TRACE, trace)
    done = CliRunner().invoke(app, ["inspect", str(trace)])
    assert done.exit_code == 2, done.output
    assert "this is the runtime's OpenTelemetry trace of a session, not an event log" in " ".join(done.output.split())
    assert "failed" not in done.output.lower()  # no verdict on a session it could not read


def test_a_trace_beside_its_evidence_shows_that_evidence(tmp_path):
    evidence = tmp_path / "case1-r0.json"
    CopilotResult(success=True, stop_reason="completed", final_response="All done.").save(evidence)
    trace = tmp_path / "case1-r0.trace.jsonl"
    shutil.copy(TRACE, trace)
    done = CliRunner().invoke(app, ["inspect", str(trace), "--json"])
    assert done.exit_code == 0, done.output
    shown = json.loads(done.stdout)
    assert shown["success"] is True and shown["stop_reason"] == "completed"
    assert f"showing the evidence it belongs to, {evidence}" in " ".join(done.stderr.split())
