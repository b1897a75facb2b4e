"""A run of Copilot Studio's evaluation API as an EvalRun: the platform's metric verdicts, honestly counted.

Each metric becomes one GradeRecord (status, the AI's reason as ``explanation``, the platform's
``error_reason``, its ``data``). A metric with an error reason is an ``error`` whatever its status
says. A case's status is decided by the one rule of ``grading.combine.case_status``, from the
facts ``case_facts`` records of the platform's case:
- the platform failed where the answer belongs (``error``, never a failure): the case ended in
  state Error or Cancelled, a finished case has no metric results, a metric says
  AgentResponseIsNullOrEmpty (the evaluator got no answer, so the other metrics judged nothing),
  or the joined export's answer is a platform error code;
- a case still Running when the run was read has no outcome yet (``unknown``);
- a blank joined answer cannot be graded (``error``), as in ``analyze`` and our own runs;
- otherwise the metrics' verdicts decide (a fail wins).
The API returns ids only; text joined from an Evaluate-tab export (``export_join``) fills the
questions, references and answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalTestCase,
    EvalTestSet,
    ExportedResult,
    GradeRecord,
    PlatformRunRecord,
)
from copilot_eval.evidence.platform_error import platform_error_code
from copilot_eval.grading.combine import CaseFacts, Verdict, case_status
from copilot_eval.platform_runs.record import Signal, platform_run
from copilot_eval.studio_eval.shapes import StudioCaseResult, StudioMetricResult, StudioRun

SOURCE = "copilot-studio-evaluation-api"
NO_ANSWER = "AgentResponseIsNullOrEmpty"
_STATUS = {"pass": CaseStatus.PASS, "fail": CaseStatus.FAIL, "error": CaseStatus.ERROR, "unknown": CaseStatus.UNKNOWN}


def reported_status(metric: StudioMetricResult) -> CaseStatus | None:
    """The metric's status as the platform wrote it (None when it is not one of the documented four)."""
    return _STATUS.get((metric.status or "").casefold())


def metric_grade(metric: StudioMetricResult) -> GradeRecord:
    """One metric as a GradeRecord; a platform error reason makes it ``error``, never ``fail``."""
    status, explanation = reported_status(metric), metric.ai_reason
    if metric.error_reason:
        status = CaseStatus.ERROR
    elif status is None:
        status = CaseStatus.UNKNOWN
        explanation = f"unrecognised metric status {metric.status!r}" + (f": {explanation}" if explanation else "")
    return GradeRecord(
        method=metric.type or "Unknown",
        status=status,
        explanation=explanation,
        error_reason=metric.error_reason,
        data=dict(metric.data) or None,
    )


def _said(grade: GradeRecord) -> str | None:
    # A metric's own error names what broke; the AI's reason, when it gave one too, follows it.
    if grade.error_reason and grade.explanation:
        return f"{grade.error_reason} ({grade.explanation})"
    return grade.error_reason or grade.explanation


def _why(grades: Sequence[GradeRecord]) -> str:
    return "; ".join(f"{g.method}: {_said(g) or 'no reason given'}" for g in grades)


def case_facts(case: StudioCaseResult, grades: Sequence[GradeRecord], answer: str | None = None) -> CaseFacts:
    """What the platform recorded of a test case, as the facts the one case-status rule decides from."""
    failures = []
    code = platform_error_code(answer)
    if code is not None:  # the text where the answer belongs is the platform's error: the platform failed
        failures.append(f"platform error code {code} in the exported answer: {(answer or '').strip()}")
    if case.state == "Error":
        errors = [g for g in grades if g.error_reason]
        failures.append("the platform's test case ended in state Error" + (f" ({_why(errors)})" if errors else ""))
    elif case.state == "Cancelled":
        failures.append("the test case was cancelled before it was evaluated")
    elif case.state != "Running" and not grades:
        # Microsoft's own CI sample counts this as an error too: the evaluation ran and returned nothing.
        failures.append("the platform returned no metric results for this test case")
    if any(g.error_reason == NO_ANSWER for g in grades):
        failures.append(f"the evaluator got no answer from the agent ({NO_ANSWER}); " + _why(grades))
    return CaseFacts(
        failure="; ".join(failures) if failures else None,
        unfinished="the test case was still running when the run was read" if case.state == "Running" else None,
        answer=None if code is not None else answer,
        verdicts=[Verdict(g.method, g.status, _said(g)) for g in grades],
        ungraded="the platform returned no metric results for this test case",
    )


def case_result(number: int, case: StudioCaseResult, row: ExportedResult | None = None) -> EvalCaseResult:
    """One test case as an EvalCaseResult numbered ``number``, with the export's answer when joined."""
    grades = [metric_grade(m) for m in case.metrics]
    answer = row.actual_response if row is not None else None
    status, reason = case_status(case_facts(case, grades, answer))
    if platform_error_code(answer) is not None:
        answer = None  # an error code is not the agent's answer
    return EvalCaseResult(
        conversation_number=number,
        passed=status is CaseStatus.PASS,
        status=status,
        actual_response=answer if answer else None,
        failure_reason=reason,
        grades=grades,
        case_id=case.test_case_id,
    )


def studio_signals(
    run: StudioRun | None, results: Sequence[EvalCaseResult], cases: Sequence[StudioCaseResult]
) -> list[Signal]:
    """The platform's own signals that a score measures the platform: a run Failed or Abandoned, no answers, all Error."""
    signals: list[Signal] = []
    if run is not None and run.state in ("Failed", "Abandoned"):
        signals.append(
            (
                f"the platform's run ended {run.state}",
                [
                    f"run {run.id}: state {run.state}, executionState {run.execution_state}, "
                    f"{run.processed if run.processed is not None else 'unknown'} of "
                    f"{run.total_test_cases if run.total_test_cases is not None else 'unknown'} test cases processed"
                ],
            )
        )
    if cases and all(c.state == "Error" for c in cases):
        signals.append(
            (
                f"all {len(cases)} test cases ended in state Error",
                [f"test case {c.test_case_id}: Error" for c in cases[:3]],
            )
        )
    if cases and all(any(m.error_reason == NO_ANSWER for m in c.metrics) for c in cases):
        signals.append(
            (
                f"every one of {len(cases)} test cases has {NO_ANSWER}: the evaluator got no answer from the agent",
                [f"case {r.conversation_number} ({r.case_id}): {NO_ANSWER}" for r in results[:3]],
            )
        )
    return signals


def refused_signal(message: str, *, published: bool) -> Signal:
    """The signal of a run request the platform answered with HTTP 500 (on the published agent: a known problem)."""
    surface = "the published agent" if published else "the draft"
    return (f"the platform answered HTTP 500 to the run request for {surface}", [message])


def studio_test_set(
    name: str, cases: Sequence[StudioCaseResult], rows: Mapping[int, ExportedResult], *, evidence: list[str]
) -> EvalTestSet:
    """The test set as far as it is known: ids from the API, questions and references from a joined export."""
    return EvalTestSet(
        name=name,
        data_type=EvalDataType.SINGLE_TURN,
        cases=[
            EvalTestCase(
                conversation_number=number,
                question=rows[number].question if number in rows else "",
                response=rows[number].expected_response if number in rows else "",
            )
            for number, _ in enumerate(cases, start=1)
        ],
        confidence=Confidence.SOURCE_INSPECTED,
        evidence=evidence,
        note=None if rows else "the evaluation API returns test case ids only; join an export (--export) for the text",
    )


def run_from_studio(
    run: StudioRun | None,
    record: PlatformRunRecord,
    *,
    rows: Mapping[int, ExportedResult] | None = None,
    signals: Sequence[Signal] = (),
    evidence: Sequence[str] = (),
    note: str | None = None,
) -> tuple[EvalRun, EvalTestSet]:
    """(run, test set) from a platform run (None when the platform refused to start one); ``rows`` by case number."""
    rows = dict(rows or {})
    cases = run.results if run is not None else []
    results = [case_result(n, c, rows.get(n)) for n, c in enumerate(cases, start=1)]
    name = record.test_set_name or record.test_set_id or "copilot-studio-test-set"
    test_set = studio_test_set(name, cases, rows, evidence=list(evidence))
    duration = None
    if run is not None and run.start_time and run.end_time and run.end_time >= run.start_time:
        duration = (run.end_time - run.start_time).total_seconds() * 1000
    surface = {True: " (published)", False: " (draft)", None: ""}[record.published]
    what = f"run {record.run_id}" if record.run_id else "a refused run request"
    notes = [f"evaluated by Copilot Studio ({what} of test set {name!r})", *([note] if note else [])]
    if record.published is None:
        notes.append(
            "which surface (draft or published) ran it is not known: the API does not say, and this "
            "machine did not start it"
        )
    if not rows and cases:
        notes.append("the API returns no question or answer text (join the Evaluate tab's export with --export)")
    eval_run = platform_run(
        test_set,
        results,
        confidence=Confidence.CONFIRMED,
        note="; ".join(notes),
        agent_name=f"Copilot Studio bot {record.bot_id}{surface}",
        started=run.start_time if run is not None else None,
        duration_ms=duration,
        signals=[*signals, *studio_signals(run, results, cases)],
        record=record,
        evidence=list(evidence),
    )
    return eval_run, test_set


__all__ = [
    "NO_ANSWER",
    "SOURCE",
    "case_facts",
    "case_result",
    "metric_grade",
    "refused_signal",
    "reported_status",
    "run_from_studio",
    "studio_signals",
    "studio_test_set",
]
