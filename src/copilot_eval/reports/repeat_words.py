"""The words every view uses for repeats and judges: per-case pass rates with their interval, verdicts over
tries, dependence of the repeats, judge instability and what the judges cost.

The terminal, HTML, Markdown and JUnit views take these sentences from here, so they agree. A case
whose LLM judge disagreed with itself is shown as "judge unstable", its own status, not as a
flaky agent. Everything is read from the run (``caseRepeats``, the grades' judge tallies).
"""

from __future__ import annotations

from collections.abc import Iterable

from copilot_eval.evalsets.repeat_stats import flaky_cases, judge_unstable_cases, pass_rates, repeat_records
from copilot_eval.evalsets.run_model import CaseRepeatRecord, CaseStatus, EvalCaseResult, EvalRun, JudgeTally

JUDGE_UNSTABLE = "judge unstable"
"""The status a view shows for a case whose LLM judge disagreed with itself."""


def percent(fraction: float | None) -> str:
    """``80%`` from 0.8; ``n/a`` for ``None``."""
    return "n/a" if fraction is None else f"{100 * fraction:.0f}%"


def rate_text(record: CaseRepeatRecord) -> str:
    """``8/10 passed (80%, 95% interval 49-94%)``; the errors apart; ``no graded try`` without one."""
    errors = f", {record.errors} not graded" if record.errors else ""
    if record.pass_rate is None:
        return f"no graded try{errors}"
    low, high = record.pass_rate_interval or (0.0, 1.0)
    return (
        f"{record.passes}/{record.tries} passed ({percent(record.pass_rate)}, "
        f"95% interval {100 * low:.0f}-{100 * high:.0f}%){errors}"
    )


def case_label(record: CaseRepeatRecord) -> str:
    """``case 3`` or ``case 3 turn 2``."""
    return f"case {record.conversation_number}" + (f" turn {record.turn}" if record.turn > 1 else "")


def case_flag(record: CaseRepeatRecord) -> str:
    """What a view shows beside a case's rate: its verdict, ``judge unstable``, ``flaky``, or nothing."""
    flags = [record.verdict.value] if record.verdict is not None else []
    if record.judge_unstable:
        flags.append(JUDGE_UNSTABLE)
    elif record.flaky:
        flags.append("flaky")
    return ", ".join(flags)


def case_records(run: EvalRun) -> list[CaseRepeatRecord] | None:
    """Each case over its tries: as run.json keeps them, or computed the same way for a run.json without
    them (written before they were kept); ``None`` for a run played once without a minimum pass rate."""
    if run.case_repeats is not None:
        return run.case_repeats
    results = run.results or []
    if run.min_pass_rate is None and not any(r.repeat_index for r in results):
        return None
    return repeat_records(results, run.min_pass_rate)


def shows_repeats(run: EvalRun) -> bool:
    """Whether a view should show the per-case table: repeats were played, or a minimum pass rate was set."""
    records = case_records(run)
    return bool(records) and (run.min_pass_rate is not None or any(r.attempts > 1 for r in records or []))


def verdict_counts(run: EvalRun) -> dict[CaseStatus, int] | None:
    """Cases per verdict over their tries (pass, fail, error); ``None`` without a minimum pass rate."""
    records = case_records(run)
    if run.min_pass_rate is None or records is None:
        return None
    verdicts = [r.verdict for r in records]
    return {status: verdicts.count(status) for status in (CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR)}


def failing_cases(run: EvalRun) -> list[CaseRepeatRecord]:
    """The cases whose verdict over their tries is fail (below the minimum pass rate)."""
    return [r for r in case_records(run) or [] if r.verdict is CaseStatus.FAIL]


def tries_of(run: EvalRun) -> int:
    """The most attempts any case had (the run's K)."""
    return max((r.attempts for r in case_records(run) or []), default=1)


def repeat_lines(run: EvalRun) -> list[str]:
    """The repeat sentences of a run: pass@k / pass^k and flaky cases, verdicts over tries, dependence, judges."""
    lines = []
    k = tries_of(run)
    if k > 1:
        at_k, all_k = pass_rates(run)
        shown = [f"{v:g}%" if v is not None else "unknown" for v in (at_k, all_k)]
        flaky = ", ".join(map(str, flaky_cases(run))) or "none"
        lines.append(f"pass@{k} {shown[0]}, pass^{k} {shown[1]}; flaky cases: {flaky}")
    if (counts := verdict_counts(run)) is not None and case_records(run) is not None:
        lines.append(
            f"per case over up to {k} tries at a minimum pass rate of {percent(run.min_pass_rate)}: "
            f"{counts[CaseStatus.PASS]} passed, {counts[CaseStatus.FAIL]} failed, "
            f"{counts[CaseStatus.ERROR]} without a graded try (errors are not tries)"
        )
    if run.repeats_independent is False:
        lines.append(f"{run.repeat_dependence}: these statistics count one sample several times")
    if unstable := judge_unstable_cases(run):
        lines.append(
            f"{JUDGE_UNSTABLE}: case {', '.join(map(str, unstable))} (an LLM judge disagreed with itself; "
            "the judge's variance, not a flaky agent)"
        )
    return lines


def _tallies(results: Iterable[EvalCaseResult]) -> list[JudgeTally]:
    return [grade.judge for result in results for grade in result.grades if grade.judge is not None]


def judge_cost_line(run: EvalRun) -> str | None:
    """``LLM judges: 18 calls (3 per answer) for 6 verdicts, 1,234 input and 56 output tokens``; ``None`` without judges."""
    tallies = _tallies(run.results or [])
    if not tallies:
        return None
    calls = sum(t.calls for t in tallies)
    per = {t.calls for t in tallies}
    each = f" ({per.pop()} per answer)" if len(per) == 1 else ""
    inputs = [t.input_tokens for t in tallies]
    outputs = [t.output_tokens for t in tallies]
    if any(v is None for v in inputs + outputs):
        tokens = "tokens unknown (a judge call did not report them)"
    else:
        tokens = f"{sum(v or 0 for v in inputs):,} input and {sum(v or 0 for v in outputs):,} output tokens"
    premium = [t.premium_requests for t in tallies]
    requests = "" if any(p is None for p in premium) else f", {sum(p or 0 for p in premium):g} premium requests"
    return f"LLM judges: {calls} calls{each} for {len(tallies)} verdicts, {tokens}{requests}"


def judge_calls_text(tally: JudgeTally) -> str:
    """``3 calls: pass, fail, pass (agreement 67%)`` for one verdict of an LLM judge."""
    verdicts = ", ".join(v.value for v in tally.verdicts)
    agreement = "" if tally.agreement is None or tally.calls == 1 else f" (agreement {percent(tally.agreement)})"
    return f"{tally.calls} call{'s' if tally.calls != 1 else ''}: {verdicts}{agreement}"


def shown_status(result: EvalCaseResult) -> str:
    """A result's status as a view names it: its status, or ``judge unstable`` when its judge disagreed."""
    return JUDGE_UNSTABLE if result.judge_unstable else result.effective_status.value


__all__ = [
    "JUDGE_UNSTABLE",
    "case_flag",
    "case_label",
    "case_records",
    "failing_cases",
    "judge_calls_text",
    "judge_cost_line",
    "percent",
    "rate_text",
    "repeat_lines",
    "shown_status",
    "shows_repeats",
    "tries_of",
    "verdict_counts",
]
