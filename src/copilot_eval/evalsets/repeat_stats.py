"""Repeat statistics: pass@k, pass^k and flaky cases of a run, and the Wilson interval of a pass rate.

Only graded attempts count: an errored (or unknown) repeat is neither a try that passed nor one
that failed, so a case with no graded attempt has unknown (``None``) rates. They are read from an
EvalRun alone, so they live here, where both ``runs`` (the summary line) and ``reports`` (the HTML
report) read them.

A pass rate measured over a handful of runs or repeats says little on its own; the interval says
how much. Wilson's interval stays inside 0..1 and behaves at 0 and at n (where the normal
approximation collapses to a point), which is the usual case for a case that always passes.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from copilot_eval.evalsets.run_model import CaseStatus, EvalRun

Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class CaseRepeats:
    """One case over its repeats."""

    conversation_number: int
    attempts: int
    graded: int
    passes: int
    turn: int = 1  # the case's turn in its conversation (rows sharing a number)

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
        """Passed in some repeats and failed in others."""
        return 0 < self.passes < self.graded


def repeat_stats(run: EvalRun) -> list[CaseRepeats]:
    """Per case, in case order: attempts, graded attempts and passes across the run's repeats."""
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for result in run.results or []:
        counts = tally[(result.conversation_number, result.turn or 1)]
        counts[0] += 1
        status = result.effective_status
        counts[1] += status in (CaseStatus.PASS, CaseStatus.FAIL)
        counts[2] += status is CaseStatus.PASS
    return [
        CaseRepeats(number, attempts, graded, passes, turn=turn)
        for (number, turn), (attempts, graded, passes) in sorted(tally.items())
    ]


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
    """Numbers of the cases (conversations) that passed in some repeats and failed in others."""
    return list(dict.fromkeys(s.conversation_number for s in repeat_stats(run) if s.flaky))


def wilson_interval(successes: int, trials: int, *, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes`` out of ``trials`` as fractions (0..1); None without trials."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"wilson_interval: need 0 <= successes <= trials (got {successes} of {trials})")
    if trials == 0:
        return None
    share = successes / trials
    z2 = z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 and n one end is exactly the bound; floating point would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


__all__ = ["Z_95", "CaseRepeats", "flaky_cases", "pass_rates", "repeat_stats", "wilson_interval"]
