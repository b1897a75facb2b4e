"""An EvalRun from the Evaluate tab's results export, judged by the same rules as our own runs.

Each row becomes a case result whose status the one rule of ``grading.combine.case_status``
decides from the row's facts: an answer holding a platform error code is the platform's failure,
a blank answer cannot be graded (both ``error``, never the agent's fault), a row without a verdict
is not graded (``unknown``), else the methods' verdicts decide (a fail wins). The run is
SOURCE-INSPECTED: read from a file, not measured by this tool. Limitation detection is the one
our own runs get, so an all-fallback export says that its 0 % measures the platform.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

# The same names as platform_runs/studio.py imports, and only names: both make run records (EvalRun,
# its cases and results) from a platform's results, each from its own source.
from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalTestCase,
    EvalTestSet,
    ExportedResult,
    RunFingerprints,
    read_results_export,
)
from copilot_eval.evidence.platform_error import platform_error_code
from copilot_eval.grading.combine import CaseFacts, Verdict, case_status
from copilot_eval.platform_runs.record import platform_run
from copilot_eval.runs.fingerprints import test_set_fingerprint
from copilot_eval.runs.limitation import KNOWN_FALLBACK_TEXTS

EXPORT_EVIDENCE = "evidence"
"""The folder of a run folder the export is kept in, as every run keeps its evidence."""


def _case_result(number: int, row: ExportedResult) -> EvalCaseResult:
    code = platform_error_code(row.actual_response)
    facts = CaseFacts(
        failure=f"platform error code {code}: {row.actual_response.strip()}" if code is not None else None,
        answer=row.actual_response,
        verdicts=[Verdict(g.method, g.status, g.explanation) for g in row.grades],
        ungraded="the export holds no verdict for this question",
    )
    status, reason = case_status(facts)
    # An error code or a blank cell is not the agent's answer.
    answer = row.actual_response if code is None and row.actual_response.strip() else None
    return EvalCaseResult(
        conversation_number=number,
        passed=status is CaseStatus.PASS,
        actual_response=answer,
        failure_reason=reason,
        status=status,
        grades=row.grades,
    )


def run_from_export(
    path: str | Path, *, name: str | None = None, fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS
) -> tuple[EvalRun, EvalTestSet]:
    """Read a results export into (run, test set); EvalSetReadError lists every problem of an unreadable file."""
    path = Path(path)
    rows = read_results_export(path)
    test_set = EvalTestSet(
        name=name or path.stem,
        data_type=EvalDataType.SINGLE_TURN,
        evidence=[path.name],
        cases=[
            EvalTestCase(conversation_number=i, question=row.question, response=row.expected_response)
            for i, row in enumerate(rows, start=1)
        ],
        confidence=Confidence.SOURCE_INSPECTED,
    )
    results = [_case_result(i, row) for i, row in enumerate(rows, start=1)]
    run = platform_run(
        test_set,
        results,
        confidence=Confidence.SOURCE_INSPECTED,
        note=f"read from the Evaluate tab's results export {path.name}",
        evidence=[path.name],
        fallback_texts=fallback_texts,
    )
    return run, test_set


def export_run(
    path: str | Path,
    folder: str | Path,
    *,
    name: str | None = None,
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
) -> tuple[EvalRun, EvalTestSet]:
    """The export's run, with the export kept in ``folder/evidence`` (the record it was read from) and its set's fingerprint.

    The folder is then finished like any run folder (``runs.finish``), so compare, regrade, merge and
    the history read it as they read ours; the fingerprint lets compare and ``--baseline`` tell runs of
    this set from runs of another.
    """
    path, folder = Path(path), Path(folder)
    run, test_set = run_from_export(path, name=name, fallback_texts=fallback_texts)
    kept = folder / EXPORT_EVIDENCE / path.name
    kept.parent.mkdir(parents=True, exist_ok=True)
    if kept.resolve() != path.resolve():
        shutil.copyfile(path, kept)
    fingerprints = RunFingerprints(test_set=test_set_fingerprint(test_set))
    return run.model_copy(update={"evidence": [str(kept)], "fingerprints": fingerprints}), test_set


__all__ = ["EXPORT_EVIDENCE", "export_run", "run_from_export"]
