"""Run folders written by the real writers from hand-made evidence, for the scan command's tests and the benchmark."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.evalsets import EvalDataType, EvalRun, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult
from copilot_eval.evidence.protocol import PlayedEvidence
from copilot_eval.reports.run_files import write_run_outputs


def write_folder(folder: Path, played: list[tuple[PlayedEvidence | None, str | None, bool]]) -> EvalRun:
    """One case per ``(evidence, answer, passed)``; evidence saved under ``evidence/`` (None: an export's answer only)."""
    (folder / "evidence").mkdir(parents=True, exist_ok=True)
    cases, results = [], []
    for number, (evidence, answer, passed) in enumerate(played, start=1):
        cases.append(EvalTestCase(conversation_number=number, question=f"question {number}", response="reference"))
        path = None
        if evidence is not None:
            path = str(evidence.save(folder / "evidence" / f"case{number}.json"))
            answer = evidence.final_response
        results.append(
            EvalCaseResult(
                conversation_number=number,
                passed=passed,
                status=CaseStatus.PASS if passed else CaseStatus.FAIL,
                actual_response=answer,
                evidence_path=path,
            )
        )
    passes = sum(1 for _, _, passed in played if passed)
    run = EvalRun(
        test_set_name="scanned",
        agent_name="agent",
        general_quality_percent=100.0 * passes / max(len(played), 1),
        passed=passes,
        failed=len(played) - passes,
        results=results,
    )
    test_set = EvalTestSet(name="scanned", data_type=EvalDataType.SINGLE_TURN, cases=cases)
    write_run_outputs(run, test_set, folder)
    return run
