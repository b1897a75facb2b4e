"""Repeat statistics: Wilson intervals, per-case verdicts over tries, errors apart, judge instability, Fisher's test."""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, GradeRecord, JudgeTally
from copilot_eval.evalsets.repeat_stats import CaseRepeats, case_repeats, fisher_exact, repeat_records, wilson_interval


@pytest.mark.parametrize(
    ("passes", "tries", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 1, 0.2065, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_matches_the_textbook_values(passes, tries, low, high):
    got = wilson_interval(passes, tries)
    assert got == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


def test_wilson_interval_without_tries_is_unknown_and_nonsense_is_refused():
    assert wilson_interval(0, 0) is None
    with pytest.raises(ValueError, match="0 <= successes <= trials"):
        wilson_interval(3, 2)


@pytest.mark.parametrize(
    ("a", "b", "p"),
    [
        ((10, 10), (0, 10), 1.0825e-05),
        ((3, 4), (1, 4), 0.4857),
        ((5, 10), (5, 10), 1.0),
        ((7, 10), (3, 10), 0.1789),
    ],
)
def test_fisher_exact_two_sided(a, b, p):
    assert fisher_exact(a[0], a[1], b[0], b[1]) == pytest.approx(p, rel=1e-3)


def test_fisher_exact_needs_tries_on_both_sides():
    assert fisher_exact(0, 0, 3, 4) is None


def _result(number: int, repeat: int, status: CaseStatus, *, unstable: bool = False, turn: int = 1) -> EvalCaseResult:
    tally = JudgeTally(calls=3, verdicts=[CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.PASS], agreement=2 / 3)
    grades = [GradeRecord(method="Compare meaning", status=status, judge=tally)] if unstable else []
    return EvalCaseResult(
        conversation_number=number,
        turn=turn,
        passed=status is CaseStatus.PASS,
        status=status,
        repeat_index=repeat,
        grades=grades,
    )


def test_a_case_verdict_counts_graded_tries_only():
    statuses = [
        CaseStatus.PASS,
        CaseStatus.PASS,
        CaseStatus.FAIL,
        CaseStatus.ERROR,
        CaseStatus.UNKNOWN,
        CaseStatus.PASS,
    ]
    (stats,) = case_repeats([_result(1, i, s) for i, s in enumerate(statuses)])
    assert (stats.attempts, stats.graded, stats.passes, stats.errors) == (6, 4, 3, 2)
    assert stats.pass_rate == 0.75
    assert stats.verdict(0.75) is CaseStatus.PASS and stats.verdict(0.8) is CaseStatus.FAIL
    assert CaseRepeats(2, 3, 0, 0).verdict(0.5) is CaseStatus.ERROR  # errors are not tries: nothing to judge
    record = stats.record(0.8)
    assert record.tries == 4 and record.errors == 2 and record.verdict is CaseStatus.FAIL
    assert record.pass_rate_interval == [pytest.approx(0.3006, abs=1e-4), pytest.approx(0.9544, abs=1e-4)]


def test_eight_of_ten_meets_eighty_percent_exactly():
    assert CaseRepeats(1, 10, 10, 8).verdict(0.8) is CaseStatus.PASS
    assert CaseRepeats(1, 10, 10, 7).verdict(0.8) is CaseStatus.FAIL


def test_a_judge_that_disagreed_makes_a_case_judge_unstable_not_flaky():
    results = [_result(1, 0, CaseStatus.PASS), _result(1, 1, CaseStatus.FAIL, unstable=True)]
    results += [_result(2, 0, CaseStatus.PASS), _result(2, 1, CaseStatus.FAIL)]
    first, second = case_repeats(results)
    assert first.judge_unstable == 1 and not first.flaky
    assert second.flaky and not second.judge_unstable
    records = repeat_records(results, None)
    assert [(r.judge_unstable, r.flaky, r.verdict) for r in records] == [(True, False, None), (False, True, None)]


def test_turns_of_a_conversation_are_cases_of_their_own():
    results = [_result(1, r, CaseStatus.PASS, turn=t) for r in range(2) for t in (1, 2)]
    assert [(s.conversation_number, s.turn, s.attempts) for s in case_repeats(results)] == [(1, 1, 2), (1, 2, 2)]
