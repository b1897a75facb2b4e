"""The gate's one decision: each case of a run against its baseline, then the run's verdict.

Per case, by its stable key, over its tries:

- played once on both sides: **regressed** when it passed then and fails now; **improved** the
  other way; **still failing** when it failed both times;
- played more than once on either side: its pass rate then and now with a one-sided Fisher exact
  test (``evalsets.repeat_stats.fisher_exact``); **regressed** when the rate dropped with p below
  ``alpha``, **lower, not significant** when it dropped less than chance allows (3/3 -> 2/3),
  **improved** when it rose significantly, **still failing** when it never passed on either side;
- **error** when no try could be graded now: neither a regression nor a pass, listed apart;
  **not graded then** when the baseline has no graded try; **new** and **removed** when only one
  side has it; otherwise **unchanged**.

The verdict takes the table of exit codes' order: the run measures the platform (nothing graded,
a runtime limitation) or a golden case is in error: undecidable; a golden case regressed, or more
regressions than ``max_regressions``: below the gate; else passed. Staleness is named, never a
verdict: a baseline older than ``stale_days``, of another fingerprint or runtime version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from copilot_eval.evalsets.repeat_stats import fisher_exact, wilson_interval
from copilot_eval.evalsets.status_change import STATUS_CHANGES, status_change
from copilot_eval.exit_codes import BELOW_GATE, PASSED, PLATFORM, Verdict, worst
from copilot_eval.gate.sides import CaseSide, RunSide

# The status-change rule's kinds, with the gate's own "lower" (a repeated case's rate fell) after "error".
KINDS: tuple[str, ...] = (*STATUS_CHANGES[:2], "lower", *STATUS_CHANGES[2:])
"""Every kind of case, most urgent first (the order the views list them in)."""

KIND_TITLES = {
    "regressed": "Regressed",
    "error": "Errors now (not graded: not a regression, not a pass)",
    "lower": "Lower, not significant",
    "improved": "Improved",
    "failing": "Still failing",
    "new": "New",
    "removed": "Removed",
    "ungraded_then": "Not graded in the baseline",
    "unchanged": "Unchanged",
}


@dataclass(frozen=True, kw_only=True)
class GateOptions:
    """What the gate allows: regressions beyond the golden cases, the test's alpha, the golden keys, staleness."""

    max_regressions: int = 0
    alpha: float = 0.05
    golden: frozenset[str] = frozenset()
    stale_days: float = 7.0

    def __post_init__(self) -> None:
        if self.max_regressions < 0:
            raise ValueError(f"--max-regressions {self.max_regressions}: give 0 or more")
        if not 0 < self.alpha < 1:
            raise ValueError(f"--alpha {self.alpha:g}: give a probability between 0 and 1, e.g. 0.05")
        if self.stale_days < 0:
            raise ValueError(f"--stale-days {self.stale_days:g}: give 0 or more days")


@dataclass(frozen=True)
class CaseOutcome:
    """One case then and now, its kind, and the one-sided p-value when it was compared over repeats."""

    key: str
    kind: str
    then: CaseSide | None
    now: CaseSide | None
    p_value: float | None = None
    golden: bool = False

    @property
    def side(self) -> CaseSide:
        """The case as it is now, else as it was (a removed case)."""
        side = self.now or self.then
        assert side is not None
        return side


def _repeated(then: CaseSide, now: CaseSide) -> bool:
    return len(then.statuses) > 1 or len(now.statuses) > 1


def _rule_status(side: CaseSide | None) -> str | None:
    """What the one status rule sees of a side: its status for a single try; over several, graded or not."""
    if side is None:
        return None
    if len(side.statuses) == 1:
        return side.statuses[0]
    return "pass" if side.tries else "error"  # only graded-or-not matters: both sides' rates go to Fisher below


def classify(then: CaseSide | None, now: CaseSide | None, *, alpha: float) -> tuple[str, float | None]:
    """The kind of one case (see the module's docstring) and its p-value over repeats (None for single tries).

    A side missing or with no graded try, and single tries on both sides, follow the one rule of
    ``evalsets.status_change`` (the rule ``compare`` and ``run --baseline`` use too).
    """
    if then is None or now is None or not then.tries or not now.tries or not _repeated(then, now):
        return status_change(_rule_status(then), _rule_status(now)), None
    lower = fisher_exact(then.passes, then.tries, now.passes, now.tries, alternative="less")
    higher = fisher_exact(now.passes, now.tries, then.passes, then.tries, alternative="less")
    assert lower is not None and higher is not None and then.rate is not None and now.rate is not None
    if now.rate < then.rate:
        return ("regressed" if lower < alpha else "lower"), lower
    if now.rate > then.rate and higher < alpha:
        return "improved", higher
    if then.passes == 0 and now.passes == 0:
        return "failing", None
    return "unchanged", (higher if now.rate > then.rate else None)


def stale_reasons(baseline: RunSide, run: RunSide, *, stale_days: float, now: datetime | None = None) -> list[str]:
    """Why the baseline may no longer be a fair comparison: age, fingerprints, runtime version (each named)."""
    reasons = []
    if baseline.run_at is not None:
        age = ((now or datetime.now(UTC)) - baseline.run_at).total_seconds() / 86400
        if age > stale_days:
            reasons.append(f"the baseline ran {age:.0f} days ago (more than --stale-days {stale_days:g})")
    for part, words in (("testSet", "the test set"), ("agent", "the agent"), ("graders", "the graders")):
        then, now_print = baseline.fingerprints.get(part), run.fingerprints.get(part)
        if then and now_print and then != now_print:
            reasons.append(f"{words} changed since ({_short(then)} -> {_short(now_print)})")
    if baseline.runtime_version and run.runtime_version and baseline.runtime_version != run.runtime_version:
        reasons.append(f"another runtime version ({baseline.runtime_version} -> {run.runtime_version})")
    return reasons


def _short(fingerprint: str) -> str:
    return fingerprint.removeprefix("sha256:")[:12]


@dataclass(frozen=True)
class GateResult:
    """The gate over one run: every case's outcome, the staleness, and the verdict (its exit code and why)."""

    baseline: RunSide
    run: RunSide
    options: GateOptions
    outcomes: list[CaseOutcome]
    stale: list[str]
    verdict: Verdict
    platform: str | None = None  # why the run measures the platform, when it does
    golden_missing: list[str] = field(default_factory=list)  # golden keys neither side has

    @property
    def code(self) -> int:
        """The exit code of the verdict's row in the table of exit codes."""
        return self.verdict.code

    @property
    def why(self) -> str | None:
        """Why the verdict's row applies (None when the gate passed)."""
        return self.verdict.why

    def of_kind(self, kind: str) -> list[CaseOutcome]:
        """The outcomes of one kind, in case order."""
        return [outcome for outcome in self.outcomes if outcome.kind == kind]

    def counts(self) -> dict[str, int]:
        """How many cases of each kind, every kind present."""
        return {kind: len(self.of_kind(kind)) for kind in KINDS}


def interval_percent(side: RunSide) -> tuple[float, float] | None:
    """The 95 % Wilson interval of a side's score, percent; None when nothing was graded."""
    found = wilson_interval(side.passed, side.graded)
    return None if found is None else (round(100 * found[0], 1), round(100 * found[1], 1))


def decide(
    baseline: RunSide, run: RunSide, options: GateOptions, *, platform: str | None = None, now: datetime | None = None
) -> GateResult:
    """Gate ``run`` against ``baseline``; ``platform`` is why the run is no verdict on the agent, when it is not."""
    outcomes = []
    for key in [*run.cases, *(k for k in baseline.cases if k not in run.cases)]:
        then, current = baseline.cases.get(key), run.cases.get(key)
        kind, p_value = classify(then, current, alpha=options.alpha)
        outcomes.append(CaseOutcome(key, kind, then, current, p_value, golden=key in options.golden))
    regressed = [o for o in outcomes if o.kind == "regressed"]
    golden_regressed = [o.key for o in regressed if o.golden]
    golden_errors = [o.key for o in outcomes if o.kind == "error" and o.golden]
    verdicts = [Verdict(PLATFORM, platform)] if platform else []
    if golden_errors:
        verdicts.append(Verdict(PLATFORM, f"golden case(s) in error, not graded: {', '.join(golden_errors)}"))
    if golden_regressed:
        verdicts.append(Verdict(BELOW_GATE, f"golden case(s) regressed: {', '.join(golden_regressed)}"))
    if len(regressed) > options.max_regressions:
        reason = f"{len(regressed)} regression(s), more than --max-regressions {options.max_regressions}"
        verdicts.append(Verdict(BELOW_GATE, reason))
    known = set(baseline.cases) | set(run.cases)
    return GateResult(
        baseline=baseline,
        run=run,
        options=options,
        outcomes=outcomes,
        stale=stale_reasons(baseline, run, stale_days=options.stale_days, now=now),
        verdict=worst(verdicts) if verdicts else PASSED,
        platform=platform,
        golden_missing=sorted(options.golden - known),
    )


__all__ = [
    "KINDS",
    "KIND_TITLES",
    "CaseOutcome",
    "GateOptions",
    "GateResult",
    "classify",
    "decide",
    "interval_percent",
    "stale_reasons",
]
