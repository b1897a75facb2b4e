"""`compare`, `run --baseline` and `gate` read a case's move between two runs by one rule, and agree on every pair.

Each pair of statuses is written as two real run folders (case 1 passes on both sides; case 2
holds the pair, or is missing on one side) and read back by each of the three: ``compare_folders``
(what `compare` and `run --baseline` read), ``regression_verdict`` (the verdict `run --baseline`
and `compare --fail-on-regression` give) and the gate's ``decide`` over ``folder_side``.
"""

from __future__ import annotations

import itertools

import pytest

from copilot_eval.evalsets.status_change import STATUS_CHANGES, status_change
from copilot_eval.exit_codes import BELOW_GATE, PASSED
from copilot_eval.gate import GateOptions, decide
from copilot_eval.gate.sides import folder_side
from copilot_eval.reports.compare import FOLDED, KINDS
from copilot_eval.reports.run_comparison import compare_folders
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs.gates import Gates, regression_verdict
from tests.history.history_fixtures import write_run

STATUSES = ("pass", "fail", "error", "unknown", None)  # None: the run does not have the case
PAIRS = [pair for pair in itertools.product(STATUSES, STATUSES) if pair != (None, None)]


def _folder(path, status):
    write_run(path, ["pass"] if status is None else ["pass", status])
    return path


@pytest.mark.parametrize(("before", "after"), PAIRS, ids=[f"{b}->{a}" for b, a in PAIRS])
def test_compare_baseline_and_gate_agree_on_every_status_pair(tmp_path, before, after):
    then, now = _folder(tmp_path / "then", before), _folder(tmp_path / "now", after)
    rule = status_change(before, after)

    comparison = compare_folders(then, now)
    compared = {change.conversation_number: change.kind for change in comparison.changes}[2]
    verdict = regression_verdict(comparison, then, Gates(fail_on_regression=True))
    gated = decide(folder_side(read_run_folder(then)), folder_side(read_run_folder(now)), GateOptions())
    gate_kind = {outcome.side.conversation_number: outcome.kind for outcome in gated.outcomes}[2]

    assert gate_kind == rule
    assert compared == FOLDED.get(rule, rule) and compared in KINDS
    assert (verdict.code == BELOW_GATE.code) == (rule == "regressed") == (compared == "regressed")
    assert verdict == PASSED or rule == "regressed"
    if before is not None and after in (
        "error",
        "unknown",
    ):  # not graded now: listed apart by all three, never a regression or a pass
        assert gate_kind == compared == "error"


def test_a_pass_that_became_an_error_is_no_regression_anywhere(tmp_path):
    # The disagreement this rule fixed: compare called it a regression, the gate an error.
    then, now = _folder(tmp_path / "then", "pass"), _folder(tmp_path / "now", "error")
    comparison = compare_folders(then, now)
    assert comparison.counts()["regressed"] == 0 and comparison.counts()["error"] == 1
    assert regression_verdict(comparison, then, Gates(fail_on_regression=True)) == PASSED
    gated = decide(folder_side(read_run_folder(then)), folder_side(read_run_folder(now)), GateOptions())
    assert gated.counts()["regressed"] == 0 and gated.counts()["error"] == 1


def test_every_kind_of_the_rule_is_one_a_view_can_name():
    assert set(STATUS_CHANGES) == {status_change(b, a) for b, a in PAIRS}
    assert {FOLDED.get(kind, kind) for kind in STATUS_CHANGES} <= set(KINDS)
