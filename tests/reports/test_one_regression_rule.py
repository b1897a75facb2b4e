"""`compare`, `run --baseline` and `gate` read a case's move between two runs by one rule, and agree on every pair.

Each pair of statuses is written as two real run folders (case 1 passes on both sides; case 2
holds the pair, or is missing on one side) and read by each of the three as the command does:
``compare_folders`` with ``regression_verdict`` (`compare --fail-on-regression`), the finisher with
``--baseline --fail-on-regression`` (the step `run --baseline` ends with), and ``gate_folder`` with
a baseline folder (`gate RUN_DIR --baseline-dir DIR`).
"""

from __future__ import annotations

import itertools

import pytest

from copilot_eval.evalsets.status_change import STATUS_CHANGES, status_change
from copilot_eval.exit_codes import BELOW_GATE, PASSED
from copilot_eval.gate import GateOptions, decide
from copilot_eval.gate.run_gate import gate_folder
from copilot_eval.gate.sides import folder_side
from copilot_eval.reports.compare import FOLDED, KINDS
from copilot_eval.reports.run_comparison import compare_folders
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.gates import Gates, regression_verdict
from tests.history.history_fixtures import shop_set, write_run

STATUSES = ("pass", "fail", "error", "unknown", None)  # None: the run does not have the case
PAIRS = [pair for pair in itertools.product(STATUSES, STATUSES) if pair != (None, None)]


def _folder(path, status):
    write_run(path, ["pass"] if status is None else ["pass", status])
    return path


def _baseline_verdict(then, now, status):
    """What `run --baseline THEN --fail-on-regression` exits with once NOW is played: the finisher's verdict."""
    run = write_run(now, ["pass"] if status is None else ["pass", status])
    options = FinishOptions(baseline=then, no_history=True, gates=Gates(fail_on_regression=True, max_errors=9))
    return finish_run_folders([FolderRun(now, run, shop_set(len(run.results or [])))], options)


@pytest.mark.parametrize(("before", "after"), PAIRS, ids=[f"{b}->{a}" for b, a in PAIRS])
def test_compare_baseline_and_gate_agree_on_every_status_pair(tmp_path, before, after):
    then, now = _folder(tmp_path / "then", before), tmp_path / "now"
    rule = status_change(before, after)

    finished = _baseline_verdict(then, now, after)  # run --baseline
    comparison = compare_folders(then, now)  # compare
    compared = {change.conversation_number: change.kind for change in comparison.changes}[2]
    verdict = regression_verdict(comparison, then, Gates(fail_on_regression=True))
    gated = gate_folder(now, options=GateOptions(), baseline_dir=then)  # gate --baseline-dir
    gate_kind = {outcome.side.conversation_number: outcome.kind for outcome in gated.outcomes}[2]

    assert gate_kind == rule
    assert compared == FOLDED.get(rule, rule) and compared in KINDS
    assert finished.folders[0].comparison is not None
    assert finished.folders[0].comparison.counts() == comparison.counts()
    regressed = rule == "regressed"
    assert (verdict.code == BELOW_GATE.code) == regressed == (compared == "regressed")
    assert (finished.verdict.code == BELOW_GATE.code) == regressed == (gated.code == BELOW_GATE.code)
    assert verdict == PASSED or regressed
    if before is not None and after in ("error", "unknown"):  # not graded now: listed apart by all three
        assert gate_kind == compared == "error"
        assert "regress" not in (finished.verdict.why or "") + (gated.why or "")


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
