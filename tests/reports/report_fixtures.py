"""A run folder built from hand-made evidence, for report tests that need no runtime.

It holds what the real runtime cannot be made to produce on demand in one run: a tool call, a
subagent, known token usage, a Copilot Studio target's citations, a judge's evidence, an error
case, a flaky repeat and a runtime limitation. Real runs are covered by the CLI and browser tests.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalTestCase,
    EvalTestSet,
    GradeRecord,
)
from copilot_eval.evidence.result import CopilotResult, SubagentInvocation
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.evidence.turn import Turn
from copilot_eval.evidence.usage import UsageEntry
from copilot_eval.reports.run_files import write_run_outputs

LIMITATION = (
    "Suspected runtime limitation: 1 of 4 cases ended in execution errors instead of answers. "
    "Evidence: case 3: error, 'HTTP 500' | durations 1.00-1.10 s"
)
HOSTILE_ANSWER = "<script>document.title='pwned'</script> & more"


def _copilot_evidence(path: Path, answer: str) -> str:
    result = CopilotResult(
        success=True,
        stop_reason="completed",
        prompt="Where is order 1042?",
        model_used="scripted-model",
        duration_ms=1500.0,
        turns=[Turn(role="user", content="Where is order 1042?"), Turn(role="assistant", content=answer)],
        all_tool_calls=[
            ToolCall(
                call_id="c1",
                name="orders-lookup_order",
                arguments={"order_id": "1042"},
                completion_received=True,
                success=True,
                result="order 1042: bike bell",
                mcp_server_name="orders",
            )
        ],
        usage=[UsageEntry(model="scripted-model", input_tokens=1200, output_tokens=80)],
        subagent_invocations=[
            SubagentInvocation(name="reviewer", kind="custom", status="completed", duration_ms=400.0)
        ],
    )
    return str(result.save(path))


def _studio_evidence(path: Path) -> str:
    # A Copilot Studio target's evidence: no CopilotResult fields, but citations and activities.
    data = {
        "answer": "Helmets are free.",
        "citations": [
            {"title": "Rental terms", "url": "https://example.invalid/terms", "text": "Helmets are included free."},
            "a plain-text citation",
        ],
        "activities": [{"type": "message", "text": "Helmets are free."}],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def build_run_folder(folder: Path) -> tuple[EvalRun, EvalTestSet]:
    """Write run.json, results.csv, test-set.json and evidence for a varied four-case run into ``folder``."""
    evidence = folder / "evidence"
    evidence.mkdir(parents=True)
    test_set = EvalTestSet(
        name="shop",
        data_type=EvalDataType.SINGLE_TURN,
        cases=[
            EvalTestCase(conversation_number=1, question="Where is order 1042?", response="It ships today."),
            EvalTestCase(conversation_number=2, question="Do you sell tandems?", response="No, we do not."),
            EvalTestCase(conversation_number=3, question="When do you open?", response="At 8:00."),
            EvalTestCase(conversation_number=4, question="Are helmets free?", response="Yes, helmets are free."),
        ],
    )
    first = _copilot_evidence(evidence / "case1-r0.json", "It ships today.")
    again = _copilot_evidence(evidence / "case1-r1.json", HOSTILE_ANSWER)
    second = _copilot_evidence(evidence / "case2-r0.json", "Yes, tandems are 40 euros.")
    judge = _copilot_evidence(evidence / "case2-r0.compare-meaning.judge.json", '{"score": 10}')
    studio = _studio_evidence(evidence / "case4-r0.json")
    results = [
        EvalCaseResult(
            conversation_number=1,
            passed=True,
            status=CaseStatus.PASS,
            actual_response="It ships today.",
            grades=[
                GradeRecord(
                    method="Text similarity",
                    status=CaseStatus.PASS,
                    score=1.0,
                    passing_score=0.7,
                    explanation="similarity 1.00 >= threshold 0.70",
                )
            ],
            evidence_path=first,
            duration_ms=1000.0,
            repeat_index=0,
        ),
        EvalCaseResult(
            conversation_number=2,
            passed=False,
            status=CaseStatus.FAIL,
            actual_response="Yes, tandems are 40 euros.",
            failure_reason="Compare meaning: contradicts",
            grades=[
                GradeRecord(
                    method="Compare meaning",
                    status=CaseStatus.FAIL,
                    score=10,
                    passing_score=50,
                    explanation="Contradicts the reference.",
                    evidence_path=judge,
                )
            ],
            evidence_path=second,
            duration_ms=1100.0,
            repeat_index=0,
        ),
        EvalCaseResult(
            conversation_number=3,
            passed=False,
            status=CaseStatus.ERROR,
            failure_reason="execution_error: HTTP 500",
            duration_ms=1050.0,
            repeat_index=0,
        ),
        EvalCaseResult(
            conversation_number=4,
            passed=True,
            status=CaseStatus.PASS,
            actual_response="Helmets are free.",
            evidence_path=studio,
            duration_ms=900.0,
            repeat_index=0,
        ),
        EvalCaseResult(
            conversation_number=1,
            passed=False,
            status=CaseStatus.FAIL,
            actual_response=HOSTILE_ANSWER,
            failure_reason="Text similarity: 0.10 < 0.70",
            evidence_path=again,
            duration_ms=1200.0,
            repeat_index=1,
        ),
    ]
    run = EvalRun(
        test_set_name="shop",
        agent_name="shop-agent",
        run_at=datetime(2026, 1, 2, tzinfo=UTC),
        general_quality_percent=50.0,
        passed=2,
        failed=2,
        errored=1,
        not_graded=0,
        duration_ms=5000.0,
        results=results,
        runtime_limitation=LIMITATION,
        confidence=Confidence.UNCONFIRMED,
        evidence=sorted({r.evidence_path for r in results if r.evidence_path}),
    )
    write_run_outputs(run, test_set, folder)
    return run, test_set
