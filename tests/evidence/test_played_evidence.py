"""One evidence interface for both kinds of target, and one place that tells the two kinds apart."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import copilot_eval
from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence.protocol import PlayedEvidence
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.evidence.turn import Turn
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs.target import RuntimeTarget, as_target, load_played, runtime_agent
from copilot_eval.targets.agent import StudioAgent
from copilot_eval.targets.config import DirectLineTarget
from copilot_eval.targets.evidence import STEPS_NOT_VISIBLE, Citation, TargetResult, TargetTurn

SRC = Path(copilot_eval.__file__).parent
PLAN_STEP = {
    "type": "event",
    "valueType": "DynamicPlanStepFinished",
    "value": {"taskDialogId": "cr123_bot.action.LookupOrder", "state": "completed"},
}


def runtime_result() -> CopilotResult:
    return CopilotResult(
        success=True,
        stop_reason="completed",
        turns=[
            Turn(role="user", content="Where is 1042?"),
            Turn(role="assistant", content="", tool_call_ids=["c1"]),
            Turn(role="assistant", content="On its way."),
        ],
        all_tool_calls=[ToolCall(name="lookup_order", call_id="c1", arguments={"order": 1042}, success=True)],
    )


def studio_result(*, steps: bool) -> TargetResult:
    turn = TargetTurn(
        prompt="Where is 1042?",
        answer="On its way.",
        activities=[PLAN_STEP] if steps else [],
        citations=[Citation(position="1", url="https://shop.example/orders", title="Orders")],
    )
    return TargetResult(target_type="directline", success=True, stop_reason="completed", turns=[turn])


@pytest.mark.parametrize("result", [runtime_result(), studio_result(steps=True)], ids=["runtime", "studio"])
def test_both_kinds_of_evidence_are_read_through_one_protocol(result):
    assert isinstance(result, PlayedEvidence)
    assert result.responses_per_prompt == ["On its way."] and result.final_response == "On its way."
    assert (result.error, result.stop_reason, result.rate_limit) == (None, "completed", None)
    steps = result.observed_steps(turn=1)
    assert not isinstance(steps, str) and len(steps) == 1 and steps[0].succeeded is True


def test_what_a_copilot_studio_agent_does_not_show_stays_unknown_or_says_why():
    studio = studio_result(steps=False)
    assert (studio.total_input_tokens, studio.total_output_tokens, studio.total_premium_requests) == (None, None, None)
    assert studio.observed_steps() == STEPS_NOT_VISIBLE + " (target type directline)"
    assert [c.url for c in studio.citations] == ["https://shop.example/orders"]
    assert studio_result(steps=True).observed_steps(turn=2) == "turn 2 was not played (the conversation has 1)"
    assert runtime_result().citations == []  # the runtime's answers carry no citations of their own


def test_saved_evidence_of_either_kind_is_read_back_as_its_kind(tmp_path):
    runtime, studio = runtime_result(), studio_result(steps=True)
    assert isinstance(load_played(runtime.save(tmp_path / "a.json")), CopilotResult)
    again = load_played(studio.save(tmp_path / "b.json"))
    assert isinstance(again, TargetResult) and again.observed_steps() == studio.observed_steps()


def test_a_runtime_agent_plays_through_its_adapter_and_a_target_plays_itself():
    agent = CopilotEval(name="bot", model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "hi"}]}]}))
    studio = StudioAgent(target=DirectLineTarget(token_endpoint="http://127.0.0.1:9/token"), name="studio")
    adapted = as_target(agent, pool="the pool")
    assert isinstance(adapted, RuntimeTarget) and (adapted.name, adapted.pool) == ("bot", "the pool")
    assert as_target(studio) is studio
    assert runtime_agent(agent) is agent and runtime_agent(studio) is None


# The classes of the two kinds of target and their evidence; only their adapters may test for them.
KINDS = {"CopilotResult", "TargetResult", "CopilotEval", "StudioAgent", "Target", "RuntimeTarget", "PlayedEvidence"}
ADAPTERS = {Path("runs/target.py")}


def kind_tests(tree: ast.AST) -> list[int]:
    """Lines of ``isinstance(x, K)`` where K names one of the two kinds (alone, in a tuple or a union)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance" and len(node.args) == 2:
            named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            named |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            if named & KINDS:
                lines.append(node.lineno)
    return lines


def test_nothing_outside_the_adapters_tells_the_two_kinds_of_target_apart():
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC) not in ADAPTERS
        for line in kind_tests(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, "read the evidence through PlayedEvidence and the agent through runs.target: " + ", ".join(found)


def test_the_checker_finds_a_test_for_a_kind():
    code = "isinstance(result, CopilotResult | TargetResult)\nisinstance(a, str)\nisinstance(x, (int, m.StudioAgent))"
    assert kind_tests(ast.parse(code)) == [1, 3]
