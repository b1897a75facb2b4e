"""The trajectory matching engine on recorded calls: modes, matchers, outcomes, scores and the diff.

Pure: calls are built as the evidence records them; the runtime-backed tests are in
tests/grading/test_trajectory_runtime.py.
"""

from __future__ import annotations

import re

import pytest

from copilot_eval.evidence.trajectory import ANY, ObservedCall, Regex, Step, match_trajectory


def call(position: int, name: str, ok: bool | None = True, **arguments: object) -> ObservedCall:
    return ObservedCall(
        position=position, name=name, arguments=arguments, succeeded=ok, error=None if ok else "boom", turn=1
    )


LOOKUP_1042 = Step("lookup_order", args={"order_id": 1042})
REFUND = Step("refund_order")


def test_the_issue_example_reads_as_a_diff():
    calls = [call(1, "search_orders", customer="ada"), call(2, "notify"), call(3, "lookup_order", order_id=1043)]
    match = match_trajectory(["search_orders", LOOKUP_1042], calls)
    assert not match
    assert match.problems == (
        "expected step 2 `lookup_order(order_id=1042)`, got `lookup_order(order_id=1043)` at call 3 "
        "(order_id: expected 1042, got 1043)",
    )
    assert "3. lookup_order(order_id=1043) [ok] in turn 1" in match.diff()
    assert '1. search_orders(customer="ada") [ok] in turn 1  <- step 1' in match.diff()


@pytest.mark.parametrize(
    ("mode", "names", "passes"),
    [
        ("strict", ["a", "b"], True),
        ("strict", ["a", "x", "b"], False),  # an extra call between
        ("strict", ["b", "a"], False),
        ("in_order", ["a", "x", "b", "y"], True),
        ("in_order", ["b", "a"], False),
        ("unordered", ["b", "a"], True),
        ("unordered", ["b", "a", "x"], False),  # an extra call
        ("unordered", ["a"], False),  # a missing one
        ("superset", ["x", "b", "y", "a"], True),
        ("superset", ["a", "x"], False),
        ("subset", ["a"], True),
        ("subset", [], True),
        ("subset", ["a", "x"], False),
    ],
)
def test_modes(mode, names, passes):
    calls = [call(i, name) for i, name in enumerate(names, start=1)]
    assert bool(match_trajectory(["a", "b"], calls, mode=mode)) is passes


def test_mode_names_are_forgiving_and_unknown_ones_are_refused():
    assert match_trajectory(["a"], [call(1, "a")], mode="in-order").mode.value == "in_order"
    with pytest.raises(ValueError, match="choose one of strict, in_order, unordered, subset, superset"):
        match_trajectory(["a"], [], mode="sequence")


def test_in_order_finds_the_alignment_a_first_look_would_miss():
    calls = [call(1, "lookup_order", order_id=1043), call(2, "lookup_order", order_id=1042), call(3, "refund_order")]
    match = match_trajectory([LOOKUP_1042, REFUND], calls)
    assert match and match.pairs == {0: 1, 1: 2}
    assert match.precision == pytest.approx(2 / 3) and match.recall == 1.0


def test_a_step_found_only_before_its_predecessor_is_called_out_of_order():
    calls = [call(1, "refund_order"), call(2, "lookup_order", order_id=1042)]
    match = match_trajectory([LOOKUP_1042, REFUND], calls)
    assert not match
    assert match.problems == (
        "expected step 2 `refund_order(...)`: `refund_order()` at call 1 matches it but out of order",
    )


def test_argument_values_keep_their_types():
    assert not match_trajectory([LOOKUP_1042], [call(1, "lookup_order", order_id="1042")])
    assert not match_trajectory([Step("t", args={"flag": 1})], [call(1, "t", flag=True)])
    assert match_trajectory([Step("t", args={"n": 2})], [call(1, "t", n=2.0)])
    assert match_trajectory([Step("t", args={"tags": ["a", "b"]})], [call(1, "t", tags=["a", "b"])])


def test_argument_matchers_regex_any_and_keys():
    made = [call(1, "refund_order", order_id=1042, note="refund: damaged on arrival", amount=27.5)]
    assert match_trajectory([Step("refund_order", args={"note": Regex(r"damaged")})], made)
    assert match_trajectory([Step("refund_order", args={"order_id": Regex(r"^10\d\d$")})], made)
    assert match_trajectory([Step("refund_order", args={"amount": ANY})], made)
    assert match_trajectory([Step("refund_order", args=["order_id", "note"])], made)
    missing = match_trajectory([Step("refund_order", args=["order_id", "reason"])], made)
    assert "reason: missing" in missing.problems[0]


def test_exact_args_refuses_other_arguments():
    made = [call(1, "lookup_order", order_id=1042, verbose=True)]
    assert match_trajectory([LOOKUP_1042], made)
    strict = match_trajectory([Step("lookup_order", args={"order_id": 1042}, exact_args=True)], made)
    assert not strict and "unexpected argument verbose" in strict.problems[0]


def test_a_call_that_ran_but_failed_is_no_match_unless_asked():
    failed = [call(1, "lookup_order", ok=False, order_id=1042)]
    match = match_trajectory([LOOKUP_1042], failed)
    assert not match and "failed: boom" in match.problems[0]
    assert match_trajectory([Step("lookup_order", args={"order_id": 1042}, must_succeed=False)], failed)


def test_unknown_outcome_is_not_success():
    unknown = [call(1, "lookup_order", ok=None, order_id=1042)]
    match = match_trajectory([LOOKUP_1042], unknown)
    assert not match and "outcome unknown" in match.problems[0]


def test_a_failed_try_then_a_good_one_passes_in_order_but_not_strict():
    calls = [call(1, "lookup_order", ok=False, order_id=1042), call(2, "lookup_order", order_id=1042)]
    assert match_trajectory([LOOKUP_1042], calls)
    strict = match_trajectory([LOOKUP_1042], calls, mode="strict")
    assert not strict
    assert strict.problems[0].startswith("expected step 1 `lookup_order(order_id=1042)`, got")
    assert "unexpected call 2 `lookup_order(order_id=1042)`" in strict.problems


def test_forbidden_calls_count_even_when_they_failed():
    calls = [call(1, "lookup_order", order_id=1042), call(2, "delete_order", ok=False, order_id=1042)]
    match = match_trajectory([LOOKUP_1042], calls, forbidden=["delete_order"])
    assert not match
    assert match.problems == ("forbidden call 2 `delete_order(order_id=1042)` (forbidden: delete_order)",)
    assert not match_trajectory([LOOKUP_1042], calls, forbidden=["/^delete_/"])
    assert match_trajectory([LOOKUP_1042], calls, forbidden=[re.compile("^drop_")])


def test_max_steps_counts_every_call():
    calls = [call(i, "lookup_order", order_id=1042) for i in range(1, 5)]
    match = match_trajectory([LOOKUP_1042], calls, max_steps=3)
    assert not match and match.problems == ("4 calls, more than the maximum of 3",)
    assert match_trajectory([LOOKUP_1042], calls, max_steps=4)


def test_names_by_pattern():
    calls = [call(1, "orders-lookup_order", order_id=1042)]
    assert match_trajectory([Step("/lookup_order$/", args={"order_id": 1042})], calls)
    assert match_trajectory([Step(re.compile("^orders-"))], calls)
    assert not match_trajectory(["lookup_order"], calls)  # a plain name is exact


def test_scores_precision_recall_f1_and_per_step():
    calls = [call(1, "a"), call(2, "lookup_order", order_id=1043), call(3, "x")]
    match = match_trajectory(["a", LOOKUP_1042, "b"], calls)
    assert match.precision == pytest.approx(1 / 3)
    assert match.recall == pytest.approx(1 / 3)
    assert match.f1 == pytest.approx(1 / 3)
    # lookup_order checks name, order_id and success: the closest call passes two of three.
    assert match.step_scores == (1.0, pytest.approx(2 / 3), 0.0)


def test_scores_at_the_edges():
    nothing = match_trajectory([], [], mode="strict")
    assert nothing and (nothing.precision, nothing.recall, nothing.f1) == (1.0, 1.0, 1.0)
    no_calls = match_trajectory(["a"], [])
    assert (no_calls.precision, no_calls.recall, no_calls.f1) == (None, 0.0, 0.0)
    assert no_calls.problems == ("expected step 1 `a(...)`: no call of a",)
    unexpected = match_trajectory([], [call(1, "a")], mode="strict")
    assert not unexpected and (unexpected.precision, unexpected.recall, unexpected.f1) == (0.0, None, 0.0)


def test_threshold_passes_a_near_miss_and_says_so_when_it_does_not():
    calls = [call(1, "a"), call(2, "b"), call(3, "x")]
    assert match_trajectory(["a", "b", "c"], calls, threshold=0.6)  # F1 2/3
    low = match_trajectory(["a", "b", "c"], calls, threshold=0.7)
    assert not low and low.problems[0] == "f1 0.67 is below the threshold 0.70"
    assert match_trajectory(["a", "b", "c"], calls, threshold=0.6, metric="recall")
    assert not match_trajectory(["a", "b", "c"], calls, threshold=0.7, metric="precision")
    with pytest.raises(ValueError, match="between 0 and 1"):
        match_trajectory(["a"], calls, threshold=60)


def test_subagents_match_by_name_or_by_the_tool_that_carried_them():
    calls = [
        ObservedCall(position=1, name="reviewer", kind="subagent", succeeded=True, via_tool="task"),
        ObservedCall(position=2, name="read_file", succeeded=True, agent="reviewer", arguments={"path": "a.py"}),
    ]
    assert match_trajectory([Step("reviewer", kind="subagent"), Step("read_file", agent="reviewer")], calls)
    assert match_trajectory(["task"], calls)
    wrong_agent = match_trajectory([Step("read_file", agent="writer")], calls)
    assert "made inside reviewer, not inside writer" in wrong_agent.problems[0]


def test_bad_steps_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="step kind 'command'"):
        Step("x", kind="command")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not one string"):
        Step("x", args="order_id")
    with pytest.raises(TypeError, match="not int"):
        match_trajectory([3], [])  # type: ignore[list-item]
