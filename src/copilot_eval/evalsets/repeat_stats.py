"""Repeats: each case over its tries (pass rate, Wilson interval, verdict), pass@k, pass^k, flaky cases.

Only graded tries count: an errored or unknown repeat is neither a try that passed nor one that
failed, so it is reported apart and a case with no graded try has unknown (``None``) rates. A
case's verdict over its tries, when a minimum pass rate is asked for, is ``pass`` when at least
that share of its graded tries passed, ``fail`` below it and ``error`` with no graded try.

Statistics are per case, never pooled: K tries of one case are K samples of that case, not K
cases, so an interval or a significance test is computed for each case on its own tries. A try
whose LLM judge disagreed with itself makes the case "judge unstable" rather than flaky: the
variance is the judge's. Read from an EvalRun (or its results) alone, so that ``runs`` (the run
summary, merged shards) and ``reports`` (every view) share one module.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from copilot_eval.evalsets.run_model import CaseRepeatRecord, CaseStatus, EvalCaseResult, EvalRun

Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson_interval(successes: int, trials: int, *, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes`` out of ``trials`` as fractions (0..1); ``None`` without trials.

    Unlike the normal approximation it stays inside 0..1 and does not shrink to a point at 0 of n
    or n of n, which is where a case that always passes (or never does) sits.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"wilson_interval: need 0 <= successes <= trials (got {successes} of {trials})")
    if trials == 0:
        return None
    share, z2 = successes / trials, z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 and n one end is the bound itself; rounding would leave it a hair away.
    return (0.0 if successes == 0 else max(0.0, centre - half), 1.0 if successes == trials else min(1.0, centre + half))


def fisher_exact(
    passes_a: int, tries_a: int, passes_b: int, tries_b: int, *, alternative: str = "two-sided"
) -> float | None:
    """Fisher exact p-value that two sets of tries of one case pass at the same rate; ``None`` without tries.

    ``alternative="two-sided"`` (any difference), or ``"less"``: one-sided, against the second set
    passing less often than the first (a gate asks only whether a case got worse).
    """
    if alternative not in ("two-sided", "less"):
        raise ValueError(f"fisher_exact: alternative is 'two-sided' or 'less', not {alternative!r}")
    if tries_a <= 0 or tries_b <= 0:
        return None
    total, passes = tries_a + tries_b, passes_a + passes_b
    low, high = max(0, passes - tries_b), min(passes, tries_a)

    def chance(k: int) -> float:
        return math.comb(tries_a, k) * math.comb(tries_b, passes - k) / math.comb(total, passes)

    if alternative == "less":
        # The second set passing less often is the first set holding at least as many of the passes.
        return min(1.0, sum(chance(k) for k in range(passes_a, high + 1)))
    seen = chance(passes_a)
    # Every table at least as unlikely as the one seen, with a little room for floating point.
    return min(1.0, sum(p for k in range(low, high + 1) if (p := chance(k)) <= seen * (1 + 1e-9)))


@dataclass(frozen=True)
class CaseRepeats:
    """One case over its repeats: tries made, tries graded, passes, and tries whose judge disagreed."""

    conversation_number: int
    attempts: int
    graded: int
    passes: int
    turn: int = 1  # the case's turn in its conversation (rows sharing a number)
    judge_unstable: int = 0  # tries on which an LLM judge's calls disagreed (a split vote is not graded)

    @property
    def errors(self) -> int:
        """Tries that could not be graded (error or unknown): reported apart, not counted as tries."""
        return self.attempts - self.graded

    @property
    def pass_at_k(self) -> bool | None:
        """Passed at least once among the graded attempts (``None`` when none was graded)."""
        return None if self.graded == 0 else self.passes > 0

    @property
    def pass_all_k(self) -> bool | None:
        """Passed every graded attempt (pass^k; ``None`` when none was graded)."""
        return None if self.graded == 0 else self.passes == self.graded

    @property
    def flaky(self) -> bool:
        """Passed in some graded tries and failed in others, with a judge that agreed with itself."""
        return 0 < self.passes < self.graded and not self.judge_unstable

    @property
    def pass_rate(self) -> float | None:
        """Passes over graded tries, 0..1; ``None`` without a graded try."""
        return None if self.graded == 0 else self.passes / self.graded

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95 % Wilson interval of the pass rate, 0..1; ``None`` without a graded try."""
        return wilson_interval(self.passes, self.graded)

    def verdict(self, min_pass_rate: float) -> CaseStatus:
        """``pass`` when at least ``min_pass_rate`` of the graded tries passed, ``fail`` below, ``error`` with none."""
        rate = self.pass_rate
        if rate is None:
            return CaseStatus.ERROR
        # Compared as counts, so 8 of 10 meets 0.8 whatever floating point makes of 8 / 10.
        return CaseStatus.PASS if self.passes >= math.ceil(min_pass_rate * self.graded - 1e-9) else CaseStatus.FAIL

    def record(self, min_pass_rate: float | None) -> CaseRepeatRecord:
        """This case as stored in run.json (``caseRepeats``)."""
        interval = self.interval
        # Alike in shape to grading.protocol's Grade.to_record (a record filled field by field): other fields.
        return CaseRepeatRecord(
            conversation_number=self.conversation_number,
            turn=self.turn,
            attempts=self.attempts,
            tries=self.graded,
            passes=self.passes,
            errors=self.errors,
            pass_rate=None if self.pass_rate is None else round(self.pass_rate, 4),
            pass_rate_interval=None if interval is None else [round(interval[0], 4), round(interval[1], 4)],
            verdict=None if min_pass_rate is None else self.verdict(min_pass_rate),
            judge_unstable=self.judge_unstable > 0,
            flaky=self.flaky,
        )


def case_repeats(results: Iterable[EvalCaseResult]) -> list[CaseRepeats]:
    """Per case, in case order: attempts, graded attempts, passes and judge-unstable tries."""
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for result in results:
        counts = tally[(result.conversation_number, result.turn or 1)]
        status = result.effective_status
        graded = status in (CaseStatus.PASS, CaseStatus.FAIL)
        counts[0] += 1
        counts[1] += graded
        counts[2] += status is CaseStatus.PASS
        counts[3] += result.judge_unstable
    return [
        CaseRepeats(number, attempts, graded, passes, turn=turn, judge_unstable=unstable)
        for (number, turn), (attempts, graded, passes, unstable) in sorted(tally.items())
    ]


def repeat_stats(run: EvalRun) -> list[CaseRepeats]:
    """Per case of ``run``, in case order: attempts, graded attempts and passes across its repeats."""
    return case_repeats(run.results or [])


def repeat_records(results: Iterable[EvalCaseResult], min_pass_rate: float | None) -> list[CaseRepeatRecord]:
    """What run.json keeps per case over its repeats (``caseRepeats``)."""
    return [stats.record(min_pass_rate) for stats in case_repeats(results)]


def pass_rates(run: EvalRun) -> tuple[float | None, float | None]:
    """Share (0-100) of gradable cases with pass@k, and with pass^k; ``None`` when nothing was graded."""
    stats = [s for s in repeat_stats(run) if s.graded]
    if not stats:
        return None, None
    return (
        100.0 * sum(bool(s.pass_at_k) for s in stats) / len(stats),
        100.0 * sum(bool(s.pass_all_k) for s in stats) / len(stats),
    )


def flaky_cases(run: EvalRun) -> list[int]:
    """Numbers of the cases (conversations) that passed in some repeats and failed in others (judge steady)."""
    return list(dict.fromkeys(s.conversation_number for s in repeat_stats(run) if s.flaky))


def judge_unstable_cases(run: EvalRun) -> list[int]:
    """Numbers of the cases (conversations) on which an LLM judge disagreed with itself in some try."""
    return list(dict.fromkeys(s.conversation_number for s in repeat_stats(run) if s.judge_unstable))


__all__ = [
    "Z_95",
    "CaseRepeats",
    "case_repeats",
    "fisher_exact",
    "flaky_cases",
    "judge_unstable_cases",
    "pass_rates",
    "repeat_records",
    "repeat_stats",
    "wilson_interval",
]
