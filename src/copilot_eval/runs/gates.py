"""The one decision that turns a finished run into a verdict: its row of ``copilot_eval.exit_codes`` and why.

Every writer of a run folder (``run`` with one or several agents, ``merge``, ``studio-eval``,
``analyze``, ``regrade``) and the pytest plugin's summary ask here, so the same facts give the
same exit code everywhere. The platform's rows come first and apply with or without a gate: a run
in which nothing could be graded, or whose score a runtime limitation says measures the platform,
is no verdict on the agent, and a gate over it would blame the agent for the platform. Then the
gates the run was asked to meet: ``--fail-under`` on the score, ``--min-pass-rate`` on each case
over its tries (recorded in the run as ``minPassRate`` and each case's verdict), and with
``--fail-on-regression`` no case regressed against the ``--baseline`` run.

A gate decides only over what it could check: when more cases than ``--max-errors`` (default 0)
could not be graded (an error, or no verdict), the gate is undecided, the platform's row, naming
them; a case whose replayed recording no longer matches says to re-record it (the test's fixture).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalRun
from copilot_eval.exit_codes import BELOW_GATE, PASSED, PLATFORM, Verdict, worst
from copilot_eval.reports.compare import RunComparison
from copilot_eval.reports.repeat_words import case_label, failing_cases, percent
from copilot_eval.runs.limitation import stale_recording

RERECORD = "re-record with --record-missing / --record"
#: How many ungraded cases a message names before it says "and N more".
NAMED_CASES = 10


@dataclass(frozen=True, kw_only=True)
class Gates:
    """What a run must meet besides completing: a minimum score (percent of graded cases), no regression."""

    fail_under: float | None = None
    fail_on_regression: bool = False
    max_errors: int = 0

    def asked(self, run: EvalRun) -> bool:
        """Whether any gate is asked of ``run`` (its ``--min-pass-rate`` is recorded in the run)."""
        return self.fail_under is not None or self.fail_on_regression or run.min_pass_rate is not None


def _name(result: EvalCaseResult) -> str:
    turn = f" turn {result.turn}" if result.turn and result.turn > 1 else ""
    repeat = f" (repeat {result.repeat_index})" if result.repeat_index else ""
    return f"case {result.conversation_number}{turn}{repeat}"


def ungraded_reason(run: EvalRun, gates: Gates) -> str | None:
    """Why a gate over ``run`` is undecided: more cases than ``--max-errors`` could not be graded, named; else None."""
    ungraded = [r for r in run.results or [] if r.effective_status in (CaseStatus.ERROR, CaseStatus.UNKNOWN)]
    if len(ungraded) <= gates.max_errors or not gates.asked(run):
        return None
    shown = ", ".join(_name(r) for r in ungraded[:NAMED_CASES])
    more = f" and {len(ungraded) - NAMED_CASES} more" if len(ungraded) > NAMED_CASES else ""
    stale = [r for r in ungraded if stale_recording(r)]
    fixture = f" ({len(stale)} replayed a recording that no longer matches: {RERECORD})" if stale else ""
    return (
        f"{len(ungraded)} case(s) could not be graded, more than --max-errors {gates.max_errors}: "
        f"{shown}{more}{fixture}; the gate over the rest is undecided"
    )


def _platform_reason(run: EvalRun) -> str | None:
    """Why the run is no verdict on the agent (every reason that applies), or None when it is one."""
    reasons = []
    record = run.platform_run
    if record is not None and record.state != "Completed":
        reasons.append(f"the platform's run ended {record.state or 'in an unknown state'}, not Completed")
    empty_shard = run.results == [] and run.shard is not None  # the split gave it no conversation: nothing to grade
    if not run.graded and not (empty_shard and run.runtime_limitation is None):
        stale = sum(stale_recording(r) for r in run.results or [])
        fixture = f" ({stale} replayed a recording that no longer matches: {RERECORD})" if stale else ""
        reasons.append(f"no case could be graded{fixture}")
    if run.not_run:
        why = run.usage.budget_reached if run.usage is not None and run.usage.budget_reached else "a run budget"
        reasons.append(f"{run.not_run} of {len(run.results or [])} cases were not run ({why})")
    if run.runtime_limitation is not None:
        standing = run.limitation_standing.value if run.limitation_standing is not None else "recorded"
        reasons.append(f"a runtime limitation is {standing}: the score measures the platform, not the agent")
    elif reasons:
        reasons[-1] += ": not a verdict on the agent"
    return "; ".join(reasons) or None


def run_verdict(run: EvalRun, gates: Gates = Gates(), *, label: str | None = None) -> Verdict:
    """The verdict on one run: the platform's row, else the gates it missed, else completed.

    ``label`` (a surface's name) starts the reason, so a verdict over several runs says which.
    """
    prefix = f"{label}: " if label else ""
    # Both the platform's reasons and the cases not graded are named (a stale recording says to re-record
    # beside a limitation); when nothing was graded the first already says so.
    reasons = [_platform_reason(run), ungraded_reason(run, gates) if run.graded else None]
    if found := [reason for reason in reasons if reason is not None]:
        return Verdict(PLATFORM, prefix + "; ".join(found))
    missed = []
    if gates.fail_under is not None and run.general_quality_percent < gates.fail_under:
        missed.append(f"score {run.general_quality_percent:g}% is below --fail-under {gates.fail_under:g}")
    if cases := failing_cases(run):
        shown = ", ".join(case_label(record) for record in cases)
        missed.append(f"{len(cases)} case(s) below --min-pass-rate {percent(run.min_pass_rate)}: {shown}")
    if missed:
        return Verdict(BELOW_GATE, prefix + "; ".join(missed))
    return PASSED


def regression_verdict(
    comparison: RunComparison, baseline: Path | str, gates: Gates, *, label: str | None = None
) -> Verdict:
    """Below the gate when ``--fail-on-regression`` is asked and a case regressed against ``baseline``."""
    regressed = comparison.of_kind("regressed")
    if not gates.fail_on_regression or not regressed:
        return PASSED
    prefix = f"{label}: " if label else ""
    return Verdict(BELOW_GATE, f"{prefix}{len(regressed)} case(s) regressed against {baseline} (--fail-on-regression)")


def runs_verdict(runs: Sequence[tuple[str | None, EvalRun]], gates: Gates = Gates()) -> Verdict:
    """The worst verdict over several runs (surfaces), each reason naming its run's label."""
    return worst(run_verdict(run, gates, label=label) for label, run in runs)


def tally_verdict(*, passed: int, failed: int, not_graded: int) -> Verdict:
    """The verdict over the pytest plugin's test-set items: every item is gated (it must pass), so one
    that could not be graded leaves the gate undecided, the platform's row, before any failure."""
    total = passed + failed + not_graded
    if not_graded:
        return Verdict(
            PLATFORM, f"{not_graded} of {total} test-set items could not be graded: the gate over them is undecided"
        )
    if failed:
        return Verdict(BELOW_GATE, f"{failed} of {total} test-set items failed")
    return PASSED


__all__ = ["RERECORD", "Gates", "regression_verdict", "run_verdict", "runs_verdict", "tally_verdict", "ungraded_reason"]
