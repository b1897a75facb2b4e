"""The gate's decision per case and per run, fed directly: single tries, repeats, errors, golden cases, staleness."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from copilot_eval.gate import CaseSide, GateOptions, RunSide, decide
from copilot_eval.gate.decide import classify


def side(*statuses: str, key: str = "1.1") -> CaseSide:
    return CaseSide(key=key, statuses=tuple(statuses), conversation_number=1, turn=1)


@pytest.mark.parametrize(
    ("then", "now", "kind"),
    [
        (("pass",), ("fail",), "regressed"),
        (("fail",), ("pass",), "improved"),
        (("fail",), ("fail",), "failing"),
        (("pass",), ("pass",), "unchanged"),
        (("pass",), ("error",), "error"),
        (("pass",), ("unknown",), "error"),
        (("error",), ("fail",), "ungraded_then"),
        (("pass", "pass", "pass"), ("pass", "pass", "fail"), "lower"),  # 3/3 -> 2/3 is not significant
        (("pass",) * 10, ("pass",) * 2 + ("fail",) * 8, "regressed"),  # 10/10 -> 2/10: p = 0.00036
        (("fail",) * 10, ("pass",) * 10, "improved"),
        (("fail",) * 3, ("fail",) * 3, "failing"),
        (("pass", "pass", "error"), ("pass", "pass", "error"), "unchanged"),  # errors are not tries
        (("pass", "error", "error"), ("error", "error", "error"), "error"),
    ],
)
def test_each_case_is_classified_over_its_tries(then, now, kind):
    found, p_value = classify(side(*then), side(*now), alpha=0.05)
    assert found == kind
    if kind in ("lower", "regressed") and len(then) > 1:
        assert p_value is not None and (p_value < 0.05) == (kind == "regressed")


def test_the_alpha_decides_what_a_drop_over_repeats_is():
    then, now = side(*["pass"] * 5), side(*["pass"] * 2, *["fail"] * 3)  # one-sided p = 0.083
    assert classify(then, now, alpha=0.05)[0] == "lower"
    assert classify(then, now, alpha=0.1)[0] == "regressed"
    assert classify(None, now, alpha=0.05)[0] == "new" and classify(then, None, alpha=0.05)[0] == "removed"


def run(cases: dict[str, tuple[str, ...]], **fields) -> RunSide:
    sides = {key: side(*statuses, key=key) for key, statuses in cases.items()}
    passed = sum(s.passes for s in sides.values())
    failed = sum(s.tries - s.passes for s in sides.values())
    values = {
        "label": "run",
        "test_set_name": "shop",
        "agent_name": "a",
        "run_at": None,
        "passed": passed,
        "failed": failed,
    }
    return RunSide(cases=sides, **(values | fields))


def test_the_verdict_follows_the_table_golden_cases_first():
    then = run({"a": ("pass",), "b": ("pass",), "c": ("pass",)})
    one = run({"a": ("fail",), "b": ("pass",), "c": ("pass",)})
    assert decide(then, one, GateOptions()).code == 1
    assert decide(then, one, GateOptions(max_regressions=1)).code == 0
    golden = decide(then, one, GateOptions(max_regressions=5, golden=frozenset({"a"})))
    assert golden.code == 1 and "golden case(s) regressed: a" in (golden.why or "")
    hidden = run({"a": ("error",), "b": ("fail",), "c": ("pass",)})
    undecided = decide(then, hidden, GateOptions(golden=frozenset({"a"})))
    assert undecided.code == 3 and "golden case(s) in error, not graded: a" in (undecided.why or "")
    assert undecided.of_kind("error")[0].key == "a" and undecided.of_kind("regressed")[0].key == "b"
    apart = decide(then, hidden, GateOptions(max_regressions=1))  # an error that is not golden is listed, not gated
    assert apart.code == 0 and [o.key for o in apart.of_kind("error")] == ["a"]
    platform = decide(then, one, GateOptions(), platform="a runtime limitation is suspected")
    assert platform.code == 3 and platform.why == "a runtime limitation is suspected"
    missing = decide(then, one, GateOptions(max_regressions=1, golden=frozenset({"zz"})))
    assert missing.golden_missing == ["zz"]


def test_a_stale_baseline_is_named_not_judged():
    now = datetime(2026, 3, 20, tzinfo=UTC)
    then = run({"a": ("pass",)}, run_at=now - timedelta(days=9), runtime_version="1.0.101",
               fingerprints={"testSet": "sha256:aaa", "agent": "sha256:bbb", "graders": None})  # fmt: skip
    current = run({"a": ("pass",)}, run_at=now, runtime_version="1.0.102",
                  fingerprints={"testSet": "sha256:aaa", "agent": "sha256:ccc", "graders": "sha256:ddd"})  # fmt: skip
    result = decide(then, current, GateOptions(stale_days=7), now=now)
    assert result.code == 0
    assert result.stale == [
        "the baseline ran 9 days ago (more than --stale-days 7)",
        "the agent changed since (bbb -> ccc)",
        "another runtime version (1.0.101 -> 1.0.102)",
    ]
    assert decide(then, current, GateOptions(stale_days=10), now=now).stale[0].startswith("the agent")


@pytest.mark.parametrize("option", [{"max_regressions": -1}, {"alpha": 0}, {"alpha": 1.5}, {"stale_days": -1}])
def test_options_out_of_range_are_refused_by_name(option):
    with pytest.raises(ValueError, match="--" + next(iter(option)).replace("_", "-")):
        GateOptions(**option)
