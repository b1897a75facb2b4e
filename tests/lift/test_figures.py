"""Paired lift figures: per-case differences, flips, the bootstrap interval, could-not-measure and the gates."""

from __future__ import annotations

import pytest

from copilot_eval.exit_codes import BELOW_GATE, OK, UNUSABLE_INPUT
from copilot_eval.lift import LiftGates, LiftPlay, lift_figures, lift_verdict, smallest_detectable


def _plays(outcomes: dict[str, tuple[str, str]], *, delivery: str = "delivered") -> list[LiftPlay]:
    """One play per case and arm; outcomes maps case -> (control status, treatment status)."""
    plays = []
    for case, (a, b) in outcomes.items():
        plays.append(LiftPlay(case, "without", 0, a, "delivered"))
        plays.append(LiftPlay(case, "with", 0, b, delivery))
    return plays


def test_a_skill_that_fixes_every_case_is_a_measured_lift_with_every_case_flipped() -> None:
    figures = lift_figures(
        _plays({f"case{i}": ("fail", "pass") for i in range(1, 7)}), control="without", treatment="with"
    )
    assert figures.difference == 1.0
    assert figures.interval == (1.0, 1.0)
    assert figures.verdict == "improved"
    assert figures.flipped("better") == [f"case{i}" for i in range(1, 7)]
    assert figures.flipped("worse") == []
    assert lift_verdict(figures, LiftGates(min_lift=0.5)).row == OK


def test_the_difference_is_over_cases_and_flips_go_each_way() -> None:
    plays = _plays({"c1": ("fail", "pass"), "c2": ("pass", "fail"), "c3": ("pass", "pass"), "c4": ("fail", "pass")})
    figures = lift_figures(plays, control="without", treatment="with", seed=7, resamples=500)
    assert figures.difference == pytest.approx(0.25)  # (+1 - 1 + 0 + 1) / 4
    assert figures.flipped("better") == ["c1", "c4"]
    assert figures.flipped("worse") == ["c2"]
    low, high = figures.interval or (None, None)
    assert low is not None and high is not None and low <= 0 <= high
    assert figures.verdict == "could_not_measure"
    # the same seed gives the same interval: it is recorded with the figures
    assert lift_figures(plays, control="without", treatment="with", seed=7, resamples=500).interval == figures.interval


def test_an_interval_spanning_zero_never_passes_min_lift_and_exits_one() -> None:
    figures = lift_figures(
        _plays({"c1": ("fail", "pass"), "c2": ("pass", "fail")}), control="without", treatment="with"
    )
    verdict = lift_verdict(figures, LiftGates(min_lift=0.0))
    assert verdict.row == BELOW_GATE and verdict.code == 1
    assert "could not measure" in (verdict.why or "")
    assert lift_verdict(figures, LiftGates()).row == OK  # no gate: measured honestly, nothing to fail


def test_repeats_give_fractional_case_rates() -> None:
    plays = [LiftPlay("c1", "without", r, "fail", "delivered") for r in range(3)]
    plays += [LiftPlay("c1", "with", r, s, "delivered") for r, s in enumerate(("pass", "pass", "fail"))]
    figures = lift_figures(plays, control="without", treatment="with")
    (case,) = figures.cases
    assert case.rate("with") == pytest.approx(2 / 3) and case.rate("without") == 0
    assert case.flip == "better"
    assert figures.verdict == "could_not_measure"  # one case is no interval over cases


def test_undelivered_and_errored_plays_are_counted_apart_never_as_no_lift() -> None:
    figures = lift_figures(
        _plays({"c1": ("fail", "pass"), "c2": ("fail", "pass")}, delivery="not_delivered"),
        control="without",
        treatment="with",
    )
    assert figures.difference is None and figures.paired_cases == 0
    assert figures.apart["with"] == {"not_delivered": 2}
    verdict = lift_verdict(figures, LiftGates(min_lift=0.1))
    assert verdict.row == UNUSABLE_INPUT and "not delivered" in (verdict.why or "")
    errored = lift_figures(_plays({"c1": ("error", "pass")}), control="without", treatment="with")
    assert errored.apart["without"] == {"error": 1}


def test_a_measured_regression_fails_max_regression() -> None:
    figures = lift_figures(_plays({f"c{i}": ("pass", "fail") for i in range(5)}), control="without", treatment="with")
    assert figures.verdict == "regressed"
    assert lift_verdict(figures, LiftGates(max_regression=0.1)).row == BELOW_GATE
    assert lift_verdict(figures, LiftGates(max_regression=1.0)).row == OK


def test_smallest_detectable_shrinks_with_more_cases() -> None:
    assert smallest_detectable([1.0]) is None
    ten = smallest_detectable([1.0, 0.0] * 5)
    forty = smallest_detectable([1.0, 0.0] * 20)
    assert ten is not None and forty is not None and forty < ten


def test_an_arm_whose_every_play_had_a_setup_problem_is_unusable_input() -> None:
    plays = [
        LiftPlay("prompt1", "without", 0, "setup", "delivered"),
        LiftPlay("prompt1", "with", 0, "pass", "delivered"),
    ]
    figures = lift_figures(plays, control="without", treatment="with")
    assert figures.apart["without"] == {"setup": 1}
    assert lift_verdict(figures, LiftGates()).row == UNUSABLE_INPUT
