"""Trajectories of Copilot Studio agents: the steps the activities report, and `error` where they report none."""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import CaseStatus, EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.grading.trajectory import TrajectoryGrader
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from copilot_eval.targets import TargetResult
from copilot_eval.testing import FakeAgent, FakeAgentsSdk, FakeDirectLine, LoopbackServer, PlannedStep, orchestrated
from tests.targets.targets_helpers import directline_agent, sdk_agent

STEPS = """
cases:
  - conversation: 1
    turn: 1
    mode: strict
    steps:
      - topic: Greeting
  - conversation: 1
    turn: 2
    steps:
      - knowledge: UniversalSearchTool
        must_succeed: false
      - action: LookupOrder
        args: {orderId: 1042}
  - conversation: 2
    steps:
      - tool: RefundOrder     # a tool step matches a Copilot Studio action too
"""


def orders_studio_agent() -> FakeAgent:
    return FakeAgent(
        rules=[
            ("hello", orchestrated("Hello! How can I help?", [PlannedStep("cr1_orders.topic.Greeting")])),
            (
                "1042",
                orchestrated(
                    "Order 1042 costs 27.50 EUR.",
                    [
                        PlannedStep("P:UniversalSearchTool", state="1"),
                        PlannedStep("cr1_orders.action.LookupOrder", arguments={"orderId": 1043}),
                    ],
                ),
            ),
            (
                "refund",
                orchestrated(
                    "Sorry, I could not refund it.",
                    [PlannedStep("cr1_orders.action.RefundOrder", state="failed", error="the flow timed out")],
                ),
            ),
        ]
    )


def the_set() -> EvalTestSet:
    rows = [(1, "hello"), (1, "what does order 1042 cost?"), (2, "refund order 7")]
    return EvalTestSet(
        name="studio orders",
        data_type=EvalDataType.CONVERSATION,
        cases=[EvalTestCase(conversation_number=n, question=q) for n, q in rows],
    )


@pytest.mark.parametrize("transport", ["directline", "agents-sdk"])
async def test_reported_plan_steps_are_matched_turn_by_turn(tmp_path, transport, monkeypatch):
    path = tmp_path / "steps.yaml"
    path.write_text(STEPS, encoding="utf-8")
    monkeypatch.setenv("FAKE_PP_TOKEN", "fake-user-token")
    fake = FakeDirectLine(orders_studio_agent()) if transport == "directline" else FakeAgentsSdk(orders_studio_agent())
    async with LoopbackServer(fake):
        agent = directline_agent(fake) if transport == "directline" else sdk_agent(fake)
        run = await run_eval_set(
            the_set(), agent, RunSettings.of(graders=[TrajectoryGrader.from_file(path)], out=tmp_path / "r")
        )
    by_case = {(r.conversation_number, r.turn): r for r in run.results}
    assert by_case[(1, 1)].effective_status is CaseStatus.PASS
    assert by_case[(1, 2)].effective_status is CaseStatus.FAIL
    assert (
        "expected step 2 `action LookupOrder(orderId=1042)`, got `action LookupOrder(orderId=1043)` at call 2 "
        "(orderId: expected 1042, got 1043)"
    ) in by_case[(1, 2)].failure_reason
    assert by_case[(2, 1)].effective_status is CaseStatus.FAIL
    assert "failed: the flow timed out" in by_case[(2, 1)].failure_reason
    saved = TargetResult.load(by_case[(1, 2)].evidence_path)
    assert [(s.kind, s.name, s.succeeded) for s in saved.turns[1].plan_steps] == [
        ("knowledge", "UniversalSearchTool", None),  # a numeric state says nothing we can read
        ("action", "LookupOrder", True),
    ]


async def test_an_agent_that_reports_no_steps_is_an_error_not_a_fail(tmp_path):
    path = tmp_path / "steps.yaml"
    path.write_text("cases:\n  - conversation: 1\n    steps: []\n", encoding="utf-8")
    fake = FakeDirectLine(FakeAgent())  # the fallback answer, no orchestration activity at all
    one = EvalTestSet(
        name="one", data_type=EvalDataType.SINGLE_TURN, cases=[EvalTestCase(conversation_number=1, question="hi")]
    )
    async with LoopbackServer(fake):
        run = await run_eval_set(
            one, directline_agent(fake), RunSettings.of(graders=[TrajectoryGrader.from_file(path)])
        )
    (result,) = run.results
    assert result.effective_status is CaseStatus.ERROR
    assert "steps are not visible for this target" in result.failure_reason and "directline" in result.failure_reason
