"""`finish_options`: a writing command's options become the finisher's by name, the rest keep their defaults."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.runs.finish import FinishOptions, finish_options
from copilot_eval.runs.gates import Gates


def test_the_finishers_options_and_gates_are_read_by_name_and_others_passed_over() -> None:
    options = {
        "junit": Path("junit.xml"),
        "markdown": "-",
        "fail_under": 80.0,
        "max_errors": 2,
        "history": "sqlite:///h.db",
        "no_history": False,
        # not the finisher's: run's `--gate NAME` is text, FinishOptions.gate the gate itself
        "out": Path("runs/x"),
        "gate": "auto",
        "name": "smoke",
    }
    made = finish_options(options, source="attack", judge_runs=False)
    assert made == FinishOptions(
        junit=Path("junit.xml"),
        markdown="-",
        history="sqlite:///h.db",
        gates=Gates(fail_under=80.0, max_errors=2),
        source="attack",
        judge_runs=False,
    )
    assert made.gate is None and made.baseline is None and not made.allow_other_set


def test_a_fixed_value_wins_over_an_option_of_the_same_name() -> None:
    made = finish_options({"no_history": False, "fail_on_regression": True}, no_history=True)
    assert made.no_history is True
    assert made.gates == Gates(fail_on_regression=True)
