"""The trajectory grader and helpers through the real runtime: turns, failures, forbidden calls, subagents."""

from __future__ import annotations

import textwrap

import pytest

from copilot_eval import Regex, Step, assert_trajectory, run_copilot
from copilot_eval.evalsets import CaseStatus, EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.grading.trajectory import TrajectoryGrader
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from tests.grading.trajectory_agents import orders_agent

pytestmark = pytest.mark.runtime

TRAJECTORIES = """
defaults:
  forbidden: [delete_order]
cases:
  - conversation: 1
    turn: 1
    mode: strict
    steps:
      - tool: lookup_order
        args: {order_id: 1042}
  - conversation: 1
    turn: 2
    mode: strict            # turn 1's lookup is not part of turn 2
    steps:
      - tool: refund_order
        args: {order_id: 1042, reason: {regex: damaged}}
  - conversation: 1
    turn: 3
    steps: []
    mode: strict            # a greeting calls nothing
  - conversation: 2
    steps:
      - tool: lookup_order
        args: {order_id: 1042}
  - conversation: 3
    steps:
      - tool: refund_order
        args: [order_id]
  - conversation: 4
    mode: superset
    steps: [lookup_order]
  - conversation: 5
    mode: strict
    steps:
      - subagent: general-purpose
      - tool: lookup_order
        agent: general-purpose
        args: {order_id: 7}
"""


def orders_set() -> EvalTestSet:
    conversations = [
        ["look up 1042", "refund it", "hello"],
        ["look up 1043"],
        ["refund 13"],
        ["clean up"],
        ["delegate"],
    ]
    return EvalTestSet(
        name="orders",
        data_type=EvalDataType.CONVERSATION,
        cases=[
            EvalTestCase(conversation_number=number, question=question)
            for number, questions in enumerate(conversations, start=1)
            for question in questions
        ],
    )


async def test_each_turn_is_graded_on_its_own_calls(tmp_path):
    path = tmp_path / "steps.yaml"
    path.write_text(TRAJECTORIES, encoding="utf-8")
    grader = TrajectoryGrader.from_file(path)
    assert grader.fit_problems(orders_set()) == []
    run = await run_eval_set(orders_set(), orders_agent(), RunSettings.of(graders=[grader], out=tmp_path / "run"))
    by_case = {(r.conversation_number, r.turn): r for r in run.results}
    status = {key: r.effective_status for key, r in by_case.items()}
    assert status == {
        (1, 1): CaseStatus.PASS,
        (1, 2): CaseStatus.PASS,
        (1, 3): CaseStatus.PASS,
        (2, 1): CaseStatus.FAIL,
        (3, 1): CaseStatus.FAIL,
        (4, 1): CaseStatus.FAIL,
        (5, 1): CaseStatus.PASS,
    }
    assert (
        "expected step 1 `lookup_order(order_id=1042)`, got `lookup_order(order_id=1043)` at call 1 "
        "(order_id: expected 1042, got 1043)"
    ) in by_case[(2, 1)].failure_reason
    assert "failed: RuntimeError: refunds of order 13 are closed" in by_case[(3, 1)].failure_reason
    assert "forbidden call 2 `delete_order(order_id=1042)` (forbidden: delete_order)" in by_case[(4, 1)].failure_reason
    grade = by_case[(4, 1)].grades[0]
    # Superset found its one step among two calls (precision 1/2, recall 1): F1 2/3; the forbidden call fails it.
    assert grade.method == "Trajectory" and grade.score == 66.67
    assert by_case[(2, 1)].grades[0].score == 0.0


async def test_the_assertion_helper_and_the_result_helper_agree():
    result = await run_copilot(orders_agent(), ["look up 1043", "refund it"])
    expected = [Step("lookup_order", args={"order_id": 1042}), Step("refund_order", args={"reason": Regex("damaged")})]
    match = result.trajectory(expected)
    assert not match and match.pairs == {1: 1}
    with pytest.raises(AssertionError) as failure:
        assert_trajectory(result, expected)
    assert str(failure.value) == match.diff()
    assert "got `lookup_order(order_id=1043)` at call 1 (order_id: expected 1042, got 1043)" in str(failure.value)
    assert result.trajectory(["refund_order"], turn=2, mode="strict")
    assert not result.trajectory(["refund_order"], turn=1)


async def test_subagent_calls_can_be_left_out():
    result = await run_copilot(orders_agent(), "delegate")
    assert result.trajectory(["task"], mode="strict", subagent_calls=False)
    assert not result.trajectory(["task"], mode="strict")  # the child's lookup is a call too
    assert result.trajectory([Step("lookup_order", agent="general-purpose")])


async def test_an_unknown_case_is_refused_before_the_run(tmp_path):
    path = tmp_path / "steps.yaml"
    path.write_text(
        textwrap.dedent(
            """
            cases:
              - conversation: 9
                steps: [lookup_order]
            """
        ),
        encoding="utf-8",
    )
    problems = TrajectoryGrader.from_file(path).fit_problems(orders_set())
    assert problems[0] == f"{path} line 3: conversation 9 turn 1 is not in the test set"
    assert (
        "no expected steps for 7 case(s) of the test set (conversation 1 turn 1, conversation 1 turn 2" in problems[1]
    )


async def test_a_single_turn_case_that_repeats_a_number_is_named_by_its_turn(tmp_path):
    # Two single-turn cases share conversationNumber 1: each plays in its own session, the second is turn 2.
    path = tmp_path / "steps.yaml"
    path.write_text(
        "cases:\n"
        "  - {conversation: 1, turn: 1, mode: strict, steps: [{tool: lookup_order, args: {order_id: 1042}}]}\n"
        "  - {conversation: 1, turn: 2, mode: strict, steps: [{tool: lookup_order, args: {order_id: 1043}}]}\n",
        encoding="utf-8",
    )
    cases = [EvalTestCase(conversation_number=1, question=q) for q in ("look up 1042", "look up 1043")]
    test_set = EvalTestSet(name="twice", data_type=EvalDataType.SINGLE_TURN, cases=cases)
    run = await run_eval_set(test_set, orders_agent(), RunSettings.of(graders=[TrajectoryGrader.from_file(path)]))
    assert [(r.turn, r.effective_status) for r in run.results] == [(1, CaseStatus.PASS), (2, CaseStatus.PASS)]
