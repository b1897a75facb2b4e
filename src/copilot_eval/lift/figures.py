"""Paired figures of a lift run: per case pass rates per arm, their difference over cases, and its interval.

The difference is ``treatment - control`` of per-case pass rates, averaged over the cases both
arms have a counted play of. Its 95% interval is a percentile bootstrap over cases (the case is
the unit that is sampled, so its repeats stay together), with a recorded seed: with repeats a
case's pass rate is a fraction, not pass/fail, which an exact paired test (McNemar) cannot take.
An interval that holds zero is ``could_not_measure``: never "no effect". Plays whose
customization was not delivered, that ended in error, that a run budget left unplayed, or whose
unit the other arm never played (``unpaired``) are counted apart.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from statistics import fmean, stdev
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # the schedule's slots are only read here
    from copilot_eval.lift.schedule import Slot

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "LiftFigures",
    "LiftPlay",
    "PairedCase",
    "lift_figures",
    "mark_unpaired",
    "smallest_detectable",
]

DEFAULT_SEED = 42
DEFAULT_RESAMPLES = 4000
Z_95 = 1.959964  # two-sided alpha 0.05
Z_80 = 0.841621  # power 0.8
PLANNING_SD = 0.5  # the spread of per-case differences assumed when the run shows none (all equal)
LiftVerdict = Literal["improved", "regressed", "could_not_measure"]


@dataclass(frozen=True)
class LiftPlay:
    """One play of one case in one arm: its status, delivery and what it spent (None: unknown)."""

    case: str
    arm: str
    repeat: int
    status: str  # a case status: pass, fail, error, unknown, not_run
    delivery: str  # delivered, not_delivered, unknown
    delivery_reason: str | None = None
    tokens: int | None = None
    turns: int | None = None
    duration_ms: float | None = None
    ai_credits: float | None = None
    unit: str | None = None  # the unit it belongs to (case and repeat), as the schedule and checkpoint name it
    paired: bool = True  # False: a run budget stopped the lift before the other arm played this unit

    @property
    def counted(self) -> bool:
        """Whether it enters the pass rates: graded pass or fail, delivered, and played in both arms."""
        return self.paired and self.delivery == "delivered" and self.status in ("pass", "fail")

    @property
    def apart_reason(self) -> str | None:
        """Why it is counted apart (not_run, not_delivered, unknown, unpaired, error ...); None when counted."""
        if self.counted:
            return None
        if self.status == "not_run":
            return "not_run"
        if self.delivery != "delivered":
            return self.delivery
        return "unpaired" if not self.paired else self.status


@dataclass(frozen=True)
class PairedCase:
    """One case: passes and counted plays per arm, its difference, and which way it flipped."""

    case: str
    passes: dict[str, int]
    counted: dict[str, int]
    difference: float | None  # treatment rate - control rate; None when an arm has no counted play

    def rate(self, arm: str) -> float | None:
        """The arm's pass rate on this case (None: no counted play)."""
        return self.passes[arm] / self.counted[arm] if self.counted.get(arm) else None

    @property
    def flip(self) -> Literal["better", "worse"] | None:
        """``better`` or ``worse`` when the case passes in most plays of one arm and not of the other; None otherwise."""
        if self.difference is None:
            return None
        rates = [self.rate(arm) for arm in self.passes]
        control, treatment = (rate is not None and rate > 0.5 for rate in rates)
        if control == treatment:
            return None
        return "better" if treatment else "worse"


@dataclass(frozen=True)
class LiftFigures:
    """The paired result: the difference, its interval and verdict, the flips, deltas and what was set apart."""

    control: str
    treatment: str
    cases: list[PairedCase]
    difference: float | None
    interval: tuple[float, float] | None
    verdict: LiftVerdict
    smallest_detectable: float | None
    seed: int
    resamples: int
    pass_rate: dict[str, float | None]
    deltas: dict[
        str, float | None
    ]  # mean per counted play, treatment - control: tokens, turns, duration_ms, ai_credits
    apart: dict[str, dict[str, int]] = field(default_factory=dict)  # arm -> reason -> plays

    @property
    def paired_cases(self) -> int:
        """Cases both arms have a counted play of (what the difference is over)."""
        return sum(case.difference is not None for case in self.cases)

    def flipped(self, way: Literal["better", "worse"]) -> list[str]:
        """The cases that flipped this way."""
        return [case.case for case in self.cases if case.flip == way]


def mark_unpaired(plays: Sequence[LiftPlay], slots: Sequence[Slot[Any]]) -> list[LiftPlay]:
    """Plays of a unit some arm never played (a budget stopped the lift between them) marked unpaired."""
    stopped = {slot.key for slot in slots if slot.outcome == "not_run"}
    return [
        replace(play, paired=False) if play.unit in stopped and play.status != "not_run" else play for play in plays
    ]


def smallest_detectable(differences: Sequence[float]) -> float | None:
    """The smallest mean difference a paired run this size detects at alpha 0.05 and power 0.8 (None under 2 cases)."""
    if len(differences) < 2:
        return None
    spread = stdev(differences) or PLANNING_SD
    return (Z_95 + Z_80) * spread / math.sqrt(len(differences))


def _bootstrap(differences: list[float], seed: int, resamples: int) -> tuple[float, float]:
    rng = random.Random(seed)
    n = len(differences)
    means = sorted(fmean(rng.choices(differences, k=n)) for _ in range(resamples))
    low = means[math.floor(0.025 * (resamples - 1))]
    high = means[math.ceil(0.975 * (resamples - 1))]
    return low, high


def _mean_delta(plays: Sequence[LiftPlay], control: str, treatment: str, name: str) -> float | None:
    def mean(arm: str) -> float | None:
        values = [getattr(p, name) for p in plays if p.arm == arm and p.counted and getattr(p, name) is not None]
        return fmean(values) if values else None

    a, b = mean(control), mean(treatment)
    return None if a is None or b is None else b - a


def _apart(plays: Sequence[LiftPlay], arms: tuple[str, str]) -> dict[str, dict[str, int]]:
    apart: dict[str, dict[str, int]] = {arm: {} for arm in arms}
    for play in plays:
        reason = play.apart_reason
        if reason is not None:
            apart[play.arm][reason] = apart[play.arm].get(reason, 0) + 1
    return apart


def lift_figures(
    plays: Sequence[LiftPlay],
    *,
    control: str,
    treatment: str,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
) -> LiftFigures:
    """The paired figures of ``plays`` (treatment minus control), with a bootstrap interval over cases."""
    order = list(dict.fromkeys(play.case for play in plays))
    cases = []
    for name in order:
        mine = [p for p in plays if p.case == name and p.counted]
        passes = {arm: sum(p.status == "pass" for p in mine if p.arm == arm) for arm in (control, treatment)}
        counted = {arm: sum(p.arm == arm for p in mine) for arm in (control, treatment)}
        difference = (
            passes[treatment] / counted[treatment] - passes[control] / counted[control]
            if counted[control] and counted[treatment]
            else None
        )
        cases.append(PairedCase(name, passes, counted, difference))
    differences = [case.difference for case in cases if case.difference is not None]
    difference = fmean(differences) if differences else None
    interval = _bootstrap(differences, seed, resamples) if differences else None
    verdict: LiftVerdict = "could_not_measure"
    if interval is not None and len(differences) >= 2 and interval[0] > 0:
        verdict = "improved"
    elif interval is not None and len(differences) >= 2 and interval[1] < 0:
        verdict = "regressed"
    rates: dict[str, float | None] = {}
    for arm in (control, treatment):
        known = [case.rate(arm) for case in cases if case.difference is not None]
        rates[arm] = fmean([r for r in known if r is not None]) if known else None
    deltas = {
        name: _mean_delta(plays, control, treatment, name) for name in ("tokens", "turns", "duration_ms", "ai_credits")
    }
    return LiftFigures(
        control,
        treatment,
        cases,
        difference,
        interval,
        verdict,
        smallest_detectable(differences),
        seed,
        resamples,
        rates,
        deltas,
        _apart(plays, (control, treatment)),
    )
