"""One verdict from several calls of an LLM judge (``--judge-repeat J``), and what they cost.

Pure vote arithmetic over finished calls: ``LlmJudge`` makes the calls and hands them here, and
this module knows nothing of judges (it imports none of them).

A judge asked J times about the same answer may not say the same thing; that variance belongs
to the judge, not to the agent, so it is measured apart. The verdict is the majority of the
readable calls (pass or fail; a tie is ``unknown``), the score their mean, and the tally keeps
every call's verdict, how far they agree and the tokens they used. A call that gave no verdict
(it failed, or its answer could not be read) is counted, never voted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from copilot_eval.evalsets import CaseStatus, JudgeTally
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.grading.protocol import Grade


@dataclass(frozen=True)
class JudgeCall:
    """One judge call: the grade it gave and the judge session's evidence (``None`` when it never ran)."""

    grade: Grade
    result: CopilotResult | None


def _total(values: Sequence[int | float | None]) -> int | float | None:
    return None if not values or any(v is None for v in values) else sum(v for v in values if v is not None)


def tally(calls: Sequence[JudgeCall]) -> JudgeTally:
    """Verdicts, agreement and cost of ``calls`` (token counts ``None`` when any is unknown)."""
    verdicts = [call.grade.status for call in calls]
    readable = [v for v in verdicts if v in (CaseStatus.PASS, CaseStatus.FAIL)]
    agreement = None
    if readable:
        agreement = round(max(readable.count(CaseStatus.PASS), readable.count(CaseStatus.FAIL)) / len(readable), 4)
    results = [call.result for call in calls]
    known = [r for r in results if r is not None]
    inputs = _total([r.total_input_tokens for r in known]) if len(known) == len(results) else None
    outputs = _total([r.total_output_tokens for r in known]) if len(known) == len(results) else None
    premium = _total([r.total_premium_requests for r in known]) if len(known) == len(results) else None
    credits = _total([r.total_ai_credits for r in known]) if len(known) == len(results) else None
    return JudgeTally(
        calls=len(calls),
        verdicts=verdicts,
        agreement=agreement,
        input_tokens=None if inputs is None else int(inputs),
        output_tokens=None if outputs is None else int(outputs),
        premium_requests=premium,
        ai_credits=credits,
    )


def _majority(passes: int, fails: int) -> CaseStatus:
    if passes == fails:
        return CaseStatus.UNKNOWN  # an even split is no verdict
    return CaseStatus.PASS if passes > fails else CaseStatus.FAIL


def combine_calls(name: str, calls: Sequence[JudgeCall]) -> Grade:
    """The one grade of a judge's calls on one answer: a single call's own, or the majority of several."""
    counted = tally(calls)
    if len(calls) == 1:
        only = calls[0].grade
        return Grade(
            only.method,
            only.status,
            only.reason,
            score=only.score,
            passing_score=only.passing_score,
            details=only.details,
            evidence_path=only.evidence_path,
            judge=counted,
            data=only.data,
        )
    readable = [c.grade for c in calls if c.grade.status in (CaseStatus.PASS, CaseStatus.FAIL)]
    silent = len(calls) - len(readable)
    if not readable:
        first = calls[0].grade
        reason = f"none of {len(calls)} judge calls gave a verdict; first: {first.reason}"
        return Grade(name, first.status, reason, evidence_path=first.evidence_path, judge=counted)
    passes = sum(g.status is CaseStatus.PASS for g in readable)
    status = _majority(passes, len(readable) - passes)
    agreeing = next((g for g in readable if g.status is status), readable[0])
    scores = [g.score for g in readable if g.score is not None]
    head = f"{passes} of {len(readable)} judge calls pass"
    if counted.unstable:
        head += " (the judge is unstable on this answer)"
    if silent:
        head += f"; {silent} of {len(calls)} gave no verdict"
    return Grade(
        name,
        status,
        f"{head}; {agreeing.reason}",
        score=round(sum(scores) / len(scores), 2) if scores else None,
        passing_score=agreeing.passing_score,
        details={**agreeing.details, "judgeReasons": [c.grade.reason for c in calls]},
        evidence_path=agreeing.evidence_path,
        judge=counted,
        data=agreeing.data,  # the figures of a call that agrees with the verdict
    )


__all__ = ["JudgeCall", "combine_calls", "tally"]
