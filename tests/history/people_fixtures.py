"""Run folders for the tests of people beside the judges: cases graded by two named graders, chosen verdicts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from copilot_eval.evalsets import (
    CaseStatus,
    EvalCaseResult,
    EvalDataType,
    EvalTestCase,
    EvalTestSet,
    GradeRecord,
    JudgeTally,
)
from copilot_eval.evalsets.quality_parts import is_general_quality
from copilot_eval.grading.combine import combined_status
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.runs.eval_runner import summarise

PARTS = {"relevance": "Yes", "completeness": "Yes", "groundedness": "NA", "contextCoverage": "NA", "abstention": "No"}


def write_graded_run(
    folder: Path,
    verdicts: Sequence[Sequence[str]],
    *,
    methods: Sequence[str] = ("Judge A",),
    unstable: Sequence[int] = (),
    started: datetime | None = None,
    agent: str = "people-agent",
    parts: dict[int, dict[str, str]] | None = None,
) -> Path:
    """A run folder whose case ``n`` (1-based) was graded ``verdicts[n-1][i]`` by ``methods[i]``.

    ``unstable`` names cases whose first grader's judge disagreed with itself (3 calls, 2 to 1);
    a General quality grader (ours or the platform's) carries ``PARTS``, or ``parts[n]`` for case n.
    """
    cases = [
        EvalTestCase(conversation_number=n, question=f"Question {n}?", response=f"Reference {n}.")
        for n in range(1, len(verdicts) + 1)
    ]
    test_set = EvalTestSet(name="people", data_type=EvalDataType.SINGLE_TURN, cases=cases)
    results = []
    for number, row in enumerate(verdicts, start=1):
        grades = []
        for position, (method, verdict) in enumerate(zip(methods, row, strict=True)):
            status = CaseStatus(verdict)
            judge = None
            if number in unstable and position == 0:
                judge = JudgeTally(calls=3, verdicts=[status, status, CaseStatus.FAIL], agreement=0.6667)
            grades.append(
                GradeRecord(
                    method=method,
                    status=status,
                    explanation=f"{method} says {verdict}",
                    judge=judge,
                    data={**PARTS, **(parts or {}).get(number, {})} if is_general_quality(method) else None,
                )
            )
        status = combined_status(g.status for g in grades)
        results.append(
            EvalCaseResult(
                conversation_number=number,
                passed=status is CaseStatus.PASS,
                status=status,
                actual_response=f"Answer {number}.",
                failure_reason=None if status is CaseStatus.PASS else "a grader said no",
                grades=grades,
            )
        )
    run = summarise(
        test_set,
        results,
        agent_name=agent,
        started=started or datetime(2027, 1, 5, 9, 0, tzinfo=UTC),
        duration_ms=12.0,
    )
    write_run_outputs(run, test_set, folder)
    return folder
