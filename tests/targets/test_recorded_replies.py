"""Copilot Studio replies as they are recorded: a platform error with a numeric code, an MCP tool in a
generative plan, a plan that ended without a message. The recordings in ``data/`` are our own, in
the shapes of a Bot Framework transcript and of the test canvas's activity JSON; each is replayed by
the library's fakes over Direct Line and the Agents SDK endpoint, and graded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.evalsets import CaseStatus, EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.grading import ExactMatch
from copilot_eval.grading.trajectory import TrajectoryGrader
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from copilot_eval.targets import TargetTurn
from copilot_eval.targets.activities import fill_turn
from copilot_eval.targets.plan_steps import plan_steps
from copilot_eval.testing import FakeAgent, FakeAgentsSdk, FakeDirectLine, LoopbackServer, Reply, Step
from tests.targets.targets_helpers import directline_agent, sdk_agent

DATA = Path(__file__).parent / "data"
STAMPED_BY_THE_CHANNEL = ("id", "timestamp", "from", "recipient", "conversation", "replyToId", "channelId")


def _activities(name: str) -> list[dict[str, Any]]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data["activities"] if isinstance(data, dict) else data


def _bot_replies(name: str) -> list[dict[str, Any]]:
    return [a for a in _activities(name) if (a.get("from") or {}).get("role") == "bot"]


def _replayed(name: str) -> Reply:
    """The recording's bot activities, sent again by a fake (which stamps ids, sender and reply-to itself)."""
    bodies = [{k: v for k, v in a.items() if k not in STAMPED_BY_THE_CHANNEL} for a in _bot_replies(name)]
    return Reply(tuple(Step(0.0, body) for body in bodies))


def _fake(transport: str, agent: FakeAgent) -> Any:
    return FakeDirectLine(agent) if transport == "directline" else FakeAgentsSdk(agent)


def _agent(transport: str, fake: Any) -> Any:
    return directline_agent(fake) if transport == "directline" else sdk_agent(fake)


def test_a_numeric_platform_error_code_is_an_error_not_an_answer():
    turn = fill_turn(TargetTurn(prompt="q"), _bot_replies("platform_error_3000.transcript"), typing_observable=False)
    assert (turn.error_code, turn.answer) == ("3000", None)
    assert turn.error.startswith("the platform answered with error code 3000: Something unexpected happened.")


def test_an_mcp_tool_in_a_generative_plan_is_a_tool_step_of_its_server():
    (step,) = plan_steps(_bot_replies("canvas_mcp_plan.json"))
    assert (step.kind, step.name, step.server) == ("action", "get_forecast", "ForecastServer")
    assert (step.arguments, step.succeeded) == ({"city": "Lyon", "days": 1}, True)


@pytest.mark.parametrize("transport", ["directline", "agents-sdk"])
async def test_recorded_replies_are_graded_for_what_they_are(tmp_path, transport, monkeypatch):
    monkeypatch.setenv("FAKE_PP_TOKEN", "fake-user-token")
    steps = tmp_path / "steps.yaml"
    steps.write_text(
        "cases:\n  - conversation: 1\n    steps: []\n"
        "  - conversation: 2\n    steps:\n      - tool: get_forecast\n        args: {city: Lyon}\n"
    )
    fake = _fake(
        transport,
        FakeAgent(
            rules=[
                ("saturday", _replayed("platform_error_3000.transcript")),
                ("rain", _replayed("canvas_mcp_plan.json")),
            ]
        ),
    )
    cases = [
        EvalTestCase(conversation_number=1, question="When does the shop open on Saturday?", response="9 am"),
        EvalTestCase(
            conversation_number=2,
            question="Will it rain in Lyon tomorrow?",
            response="Light rain is expected in Lyon tomorrow, between 11 and 15 C.",
        ),
    ]
    the_set = EvalTestSet(name="recorded", data_type=EvalDataType.CONVERSATION, cases=cases)
    async with LoopbackServer(fake):
        run = await run_eval_set(
            the_set,
            _agent(transport, fake),
            RunSettings.of(graders=[ExactMatch(), TrajectoryGrader.from_file(steps)], out=tmp_path / "r"),
        )
    error, forecast = sorted(run.results, key=lambda r: r.conversation_number)
    assert error.effective_status is CaseStatus.ERROR, "a platform error is not a wrong answer"
    assert forecast.effective_status is CaseStatus.PASS, [v.reason for v in forecast.verdicts]


@pytest.mark.parametrize("transport", ["directline", "agents-sdk"])
async def test_a_turn_without_a_message_says_how_it_ended(transport, monkeypatch):
    monkeypatch.setenv("FAKE_PP_TOKEN", "fake-user-token")
    fake = _fake(transport, FakeAgent(rules=[("rain", _replayed("canvas_plan_no_message.json"))]))
    async with LoopbackServer(fake):
        result = await _agent(transport, fake).play(["Will it rain in Lyon tomorrow?"])
    (turn,) = result.turns
    assert turn.answer is None and len(turn.activities) == 5
    if transport == "directline":
        assert turn.ended_by == "quiet"
        assert turn.error.startswith("the agent sent no message: 5 other activities (event), then 0.25 s of quiet")
        assert "within" not in turn.error
    else:
        assert turn.ended_by == "end_event"
        assert turn.error.startswith(
            "the agent sent no message: 5 other activities (event), then the end of its stream"
        )
