"""Comparing repeated runs case by case: each case over its tries, with a per-case Fisher test, never pooled."""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, GradeRecord
from copilot_eval.reports.compare import compare_runs
from copilot_eval.reports.compare_views import comparison_markdown
from copilot_eval.runs import summarise
from tests.runs.runs_helpers import numbered_set


def _run(passes_per_case: dict[int, int], tries: int, *, min_pass_rate: float | None = None):
    results = [
        EvalCaseResult(
            conversation_number=number,
            passed=repeat < passes,
            status=CaseStatus.PASS if repeat < passes else CaseStatus.FAIL,
            repeat_index=repeat,
            grades=[GradeRecord(method="Similarity", status=CaseStatus.PASS, score=90.0 if repeat < passes else 10.0)],
        )
        for number, passes in passes_per_case.items()
        for repeat in range(tries)
    ]
    return summarise(
        numbered_set(len(passes_per_case)),
        results,
        agent_name="a",
        started=None,
        duration_ms=None,
        min_pass_rate=min_pass_rate,
    )


def test_a_case_is_compared_over_its_tries_with_its_own_significance():
    comparison = compare_runs(_run({1: 10, 2: 6, 3: 5}, 10), _run({1: 2, 2: 5, 3: 5}, 10))
    assert comparison.counts()["regressed"] == 1 and len(comparison.changes) == 3  # cases, not 30 tries
    first, second, third = comparison.changes
    assert first.label == "case 1" and first.kind == "regressed"
    assert first.p_value == pytest.approx(0.0007, abs=1e-4) and first.significant
    assert second.kind == "unchanged"  # fail -> fail over tries (not every try passed)
    assert not second.significant and second.rates == "6/10 -> 5/10 (p=1)"
    assert first.score_deltas == {"Similarity": -64.0}  # mean score over the tries
    assert third.kind == "unchanged" and third.p_value == 1.0
    assert "passed 10/10 -> 2/10 (p=0.000714) significant" in comparison_markdown(comparison)


def test_the_minimum_pass_rate_of_each_run_decides_its_side():
    comparison = compare_runs(_run({1: 9}, 10, min_pass_rate=0.8), _run({1: 7}, 10, min_pass_rate=0.8))
    (change,) = comparison.changes
    assert (change.before, change.after, change.kind) == (CaseStatus.PASS, CaseStatus.FAIL, "regressed")
    assert not change.significant  # 9/10 against 7/10 is within chance over ten tries
