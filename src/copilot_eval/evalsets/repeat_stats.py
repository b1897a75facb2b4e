"""Repeats: pass@k (passed in at least one of k tries), pass^k (passed in all k) and flaky cases.

Only graded attempts count: an errored repeat is neither a try that passed nor one that failed,
so a case with no graded attempt has unknown (``None``) rates. They are read from an EvalRun
alone, so they live here, where both ``runs`` (the summary line) and ``reports`` (the HTML
report) read them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from copilot_eval.evalsets.run_model import CaseStatus, EvalRun


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
    return [CaseRepeats(number, *counts, turn=turn) for (number, turn), counts in sorted(tally.items())]


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


__all__ = ["CaseRepeats", "flaky_cases", "pass_rates", "repeat_stats"]
