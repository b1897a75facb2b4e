"""How well a grader agrees with people: true-positive and true-negative rates, accuracy, Cohen's kappa.

The person's verdict is the reference and "pass" the positive class: the true-positive rate is
the share of the answers people passed that the grader passed too, the true-negative rate the
share of the answers people failed that the grader failed too. Accuracy alone flatters a grader
on a set where nearly everything passes; Cohen's kappa corrects the agreement for what chance
would give with the same two base rates (1 is perfect, 0 is chance, below 0 worse than chance).
Its 95 % interval carries the Wilson score interval of the observed agreement ``p_o`` through
kappa's formula ``(p_o - p_e) / (1 - p_e)``, chance agreement ``p_e`` held at its observed value.
The textbook large-sample interval (Cohen 1960, standard error ``sqrt(p_o (1 - p_o) / n) / (1 - p_e)``)
shrinks to a point when every reviewed answer agrees, so ten agreeing answers would read as
"kappa 1.00 [1.00, 1.00]"; Wilson's does not (ten of ten: 0.44 to 1 at ``p_e`` 0.5), which is the
honest reading of ten answers, and it is the interval every other rate in this tool uses. Only pairs where both gave pass or fail count; an error, an unknown or a
skipped review is no evidence either way. Unknown stays ``None`` (a rate with nothing to divide by).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from copilot_eval.evalsets.repeat_stats import wilson_interval


@dataclass(frozen=True)
class Agreement:
    """The confusion counts of a grader against people, and the figures read from them."""

    both_pass: int  # true positives
    both_fail: int  # true negatives
    grader_pass_person_fail: int  # false positives
    grader_fail_person_pass: int  # false negatives

    @property
    def count(self) -> int:
        """Answers both judged (pass or fail)."""
        return self.both_pass + self.both_fail + self.grader_pass_person_fail + self.grader_fail_person_pass

    @property
    def true_positive_rate(self) -> float | None:
        """Of the answers people passed, the share the grader passed."""
        people_pass = self.both_pass + self.grader_fail_person_pass
        return self.both_pass / people_pass if people_pass else None

    @property
    def true_negative_rate(self) -> float | None:
        """Of the answers people failed, the share the grader failed."""
        people_fail = self.both_fail + self.grader_pass_person_fail
        return self.both_fail / people_fail if people_fail else None

    @property
    def accuracy(self) -> float | None:
        """The share of answers where grader and person agree."""
        return (self.both_pass + self.both_fail) / self.count if self.count else None

    def _chance(self) -> float:
        n = self.count
        grader_pass = (self.both_pass + self.grader_pass_person_fail) / n
        person_pass = (self.both_pass + self.grader_fail_person_pass) / n
        return grader_pass * person_pass + (1 - grader_pass) * (1 - person_pass)

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa; ``None`` with no pairs, or when chance alone predicts every pair (one class only)."""
        accuracy = self.accuracy
        if accuracy is None:  # no pairs
            return None
        chance = self._chance()
        if chance >= 1:
            return None
        return (accuracy - chance) / (1 - chance)

    @property
    def kappa_interval(self) -> tuple[float, float] | None:
        """The kappa's 95 % interval: the observed agreement's Wilson interval through kappa's formula, in [-1, 1]."""
        if self.kappa is None:
            return None
        interval = wilson_interval(self.both_pass + self.both_fail, self.count)
        assert interval is not None  # a kappa has pairs
        chance = self._chance()
        low, high = ((bound - chance) / (1 - chance) for bound in interval)
        return max(-1.0, low), min(1.0, high)


def agreement(pairs: Iterable[tuple[bool, bool]]) -> Agreement:
    """The agreement of ``(grader passed, person passed)`` pairs."""
    counts = [0, 0, 0, 0]
    for grader_passed, person_passed in pairs:
        if grader_passed and person_passed:
            counts[0] += 1
        elif not grader_passed and not person_passed:
            counts[1] += 1
        elif grader_passed:
            counts[2] += 1
        else:
            counts[3] += 1
    return Agreement(*counts)


__all__ = ["Agreement", "agreement"]
