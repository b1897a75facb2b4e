"""The real runtime is the judge of the wire output: each wire API and transport, text and tool calls."""

from __future__ import annotations

import os

import pytest
from copilot import define_tool
from pydantic import BaseModel

from copilot_eval.models import NO_TURN_TEXT, ScriptedModel

pytestmark = pytest.mark.runtime

WIRES = [
    pytest.param("completions", "http", False, id="completions-json"),
    pytest.param("completions", "http", True, id="completions-stream"),
    pytest.param("responses", "http", False, id="responses-json"),
    pytest.param("responses", "http", True, id="responses-stream"),
    pytest.param("responses", "websockets", True, id="responses-websocket"),
]


class Account(BaseModel):
    account: str


def _balance_tool():
    def get_balance(params: Account) -> str:
        return f"balance of {params.account}: 42"

    return define_tool("get_balance", description="Get an account balance", handler=get_balance, params_type=Account)


BALANCE = {
    "rules": [
        {
            "when": {"prompt_contains": "balance"},
            "turns": [
                {"tool_calls": [{"name": "get_balance", "arguments": {"account": "A1"}}]},
                {"text": "Tool said: {last_tool_result}", "usage": {"input_tokens": 1234, "output_tokens": 56}},
            ],
        },
    ]
}


@pytest.mark.parametrize(("wire_api", "transport", "streaming"), WIRES)
async def test_custom_tool_call_then_text(runtime, wire_api, transport, streaming):
    model = ScriptedModel.from_dict(BALANCE, wire_api=wire_api, transport=transport)
    run = await runtime.run(model, "what is my balance?", streaming=streaming, tools=[_balance_tool()])
    assert run.errors == []
    assert run.final_text == "Tool said: balance of A1: 42"
    done = run.of_type("tool.execution_complete")
    assert [(e.data.tool_call_id, e.data.success) for e in done] == [("call_0_0_0", True)]
    usage = run.of_type("assistant.usage")[-1].data
    assert (usage.input_tokens, usage.output_tokens) == (1234, 56)
    expected = "websocket" if transport == "websockets" else "http"
    assert [(c.transport, c.outcome) for c in run.endpoint.calls] == [(expected, "tool_calls"), (expected, "text")]


@pytest.mark.parametrize(("wire_api", "transport", "streaming"), WIRES)
async def test_builtin_create_writes_into_the_working_directory(runtime, wire_api, transport, streaming):
    model = ScriptedModel.from_file(
        os.path.join(os.path.dirname(__file__), "../../examples/scripts/hello.yaml"),
        wire_api=wire_api,
        transport=transport,
    )
    run = await runtime.run(model, "make a hello file", streaming=streaming)
    assert run.final_text == "Created hello.txt"
    with open(os.path.join(run.working_directory, "hello.txt")) as f:
        assert f.read() == "hello\n"


async def test_parallel_tool_calls_in_one_turn(runtime):
    script = {
        "rules": [
            {
                "turns": [
                    {
                        "tool_calls": [
                            {"name": "get_balance", "arguments": {"account": "A"}},
                            {"name": "get_balance", "arguments": {"account": "B"}, "id": "second"},
                        ]
                    },
                    {"text": "last: {last_tool_result}"},
                ]
            }
        ]
    }
    run = await runtime.run(ScriptedModel.from_dict(script), "two balances", tools=[_balance_tool()])
    assert sorted(e.data.tool_call_id for e in run.of_type("tool.execution_complete")) == ["call_0_0_0", "second"]
    assert run.final_text == "last: balance of B: 42"


async def test_new_prompt_in_a_session_restarts_its_rule_and_runs_out_plainly(runtime):
    script = {
        "rules": [
            {"when": {"prompt_contains": "again"}, "turns": [{"text": "once"}]},
            {"turns": [{"text": "you said: {prompt}"}]},
        ]
    }
    run = await runtime.run(ScriptedModel.from_dict(script), ["first", "second", "again"])
    texts = [e.data.content for e in run.of_type("assistant.message")]
    assert texts == ["you said: first", "you said: second", "once"]


async def test_skill_context_is_not_taken_for_a_prompt(runtime, tmp_path):
    (tmp_path / "greet").mkdir()
    (tmp_path / "greet" / "SKILL.md").write_text("---\nname: greet\ndescription: Greets.\n---\nSay Ahoy.\n")
    script = {
        "rules": [
            {
                "when": {"prompt_contains": "skill"},
                "turns": [
                    {"tool_calls": [{"name": "skill", "arguments": {"skill": "greet"}}]},
                    {"text": "greeted for: {prompt}"},
                ],
            }
        ]
    }
    run = await runtime.run(ScriptedModel.from_dict(script), "use the skill", skill_directories=[str(tmp_path)])
    assert run.final_text == "greeted for: use the skill"


async def test_task_subagent_selects_its_own_rule(runtime):
    script = {
        "rules": [
            {
                "when": {"prompt_contains": "delegate"},
                "turns": [
                    {
                        "tool_calls": [
                            {
                                "name": "task",
                                "arguments": {
                                    "description": "say hi",
                                    "prompt": "subtask: say hi",
                                    "agent_type": "general-purpose",
                                    "name": "helper",
                                },
                            }
                        ]
                    },
                    {"text": "child said: {last_tool_result}"},
                ],
            },
            {"when": {"prompt_contains": "subtask"}, "turns": [{"text": "hi from the subagent"}]},
        ]
    }
    run = await runtime.run(ScriptedModel.from_dict(script), "delegate this")
    assert "hi from the subagent" in run.final_text
    child = [c for c in run.endpoint.calls if c.agent_id != run.session_id]
    assert [(c.prompt, c.rule_index, c.outcome) for c in child] == [("subtask: say hi", 1, "text")]


async def test_running_out_of_turns_answers_placeholder(runtime):
    script = {"rules": [{"turns": [{"tool_calls": [{"name": "get_balance", "arguments": {"account": "A"}}]}]}]}
    run = await runtime.run(ScriptedModel.from_dict(script), "go", tools=[_balance_tool()])
    assert run.final_text == NO_TURN_TEXT


async def test_usage_null_reaches_the_runtime_as_unknown_not_zero(runtime):
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "x", "usage": None}]}]})
    run = await runtime.run(model, "go", streaming=True)
    usage = run.of_type("assistant.usage")[-1].data
    assert (usage.input_tokens, usage.output_tokens) == (None, None)
