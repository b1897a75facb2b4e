"""The lift gates (``--min-lift``, ``--max-regression``) and the verdict they give, by the one exit-code table.

``--min-lift D`` passes only a measured improvement (the interval above zero) whose difference is
at least D: a lift that could not be measured never passes it. ``--max-regression D`` fails a
measured regression (the interval below zero) larger than D. An arm none of whose plays could
count (its customization never delivered, or every play an error) is unusable input, not a lift.
"""

from __future__ import annotations

from dataclasses import dataclass

from copilot_eval.exit_codes import BELOW_GATE, PASSED, PLATFORM, UNUSABLE_INPUT, Verdict, worst
from copilot_eval.lift.figures import LiftFigures

__all__ = ["LiftGates", "lift_verdict"]


@dataclass(frozen=True)
class LiftGates:
    """The smallest lift that passes and the largest regression tolerated (shares 0..1; None: no gate)."""

    min_lift: float | None = None
    max_regression: float | None = None

    def __post_init__(self) -> None:
        for option, value in (("--min-lift", self.min_lift), ("--max-regression", self.max_regression)):
            if value is not None and not -1 <= value <= 1:
                raise ValueError(f"{option}: a difference of pass rates between -1 and 1, got {value}")


def _points(value: float | None) -> str:
    return "unknown" if value is None else f"{value * 100:+.1f} points"


def lift_verdict(figures: LiftFigures, gates: LiftGates) -> Verdict:
    """The verdict of a lift run's figures against ``gates``."""
    verdicts = []
    for arm in (figures.control, figures.treatment):
        counted = sum(case.counted.get(arm, 0) for case in figures.cases)
        if counted == 0:
            apart = figures.apart.get(arm, {})
            if apart.get("not_delivered"):
                why = (
                    f"arm {arm}: no play counted, its customization was not delivered ({apart['not_delivered']} plays)"
                )
                verdicts.append(Verdict(UNUSABLE_INPUT, why))
            elif apart.get("setup"):
                why = f"arm {arm}: no play counted, a setup problem in its catalogue ({apart['setup']} plays)"
                verdicts.append(Verdict(UNUSABLE_INPUT, why))
            else:
                verdicts.append(Verdict(PLATFORM, f"arm {arm}: no play could be graded ({apart or 'no plays'})"))
    if gates.min_lift is not None:
        if figures.verdict != "improved":
            verdicts.append(Verdict(BELOW_GATE, f"--min-lift {gates.min_lift:g}: {figures.verdict.replace('_', ' ')}"))
        elif figures.difference is not None and figures.difference < gates.min_lift:
            verdicts.append(
                Verdict(BELOW_GATE, f"--min-lift {gates.min_lift:g}: the lift is {_points(figures.difference)}")
            )
    regressed = figures.verdict == "regressed" and figures.difference is not None
    if gates.max_regression is not None and regressed and -(figures.difference or 0) > gates.max_regression:
        verdicts.append(
            Verdict(BELOW_GATE, f"--max-regression {gates.max_regression:g}: {_points(figures.difference)}")
        )
    return worst(verdicts) if verdicts else PASSED
