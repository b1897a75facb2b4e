"""Choosing turns: position from the request, fault attempts, running out; templates and ids."""

from __future__ import annotations

import asyncio
import json

import httpx
from copilot import CopilotRequestContext

from copilot_eval.models import NO_RULE_TEXT, NO_TURN_TEXT, ScriptedModel
from copilot_eval.models.scripted.turns import build_answer, choose_turn
from copilot_eval.models.wire.prompt import RequestView


def _view(prompt: str = "go", position: int = 0, tool: str | None = None) -> RequestView:
    return RequestView(prompt=prompt, position=position, last_tool_result=tool, prompt_number=0, conversation="c")


def _counter():
    state = {"n": 0}

    def next_attempt() -> int:
        state["n"] += 1
        return state["n"] - 1

    return next_attempt


def _rules(*turns):
    return ScriptedModel([{"turns": list(turns)}]).rules


def test_first_matching_rule_wins_and_no_rule_answers_placeholder():
    rules = ScriptedModel(
        [
            {"when": {"prompt_matches": r"^deploy \d+$"}, "turns": [{"text": "deploying"}]},
            {"when": {"prompt_contains": "hello"}, "turns": [{"text": "hi"}]},
        ]
    ).rules
    assert choose_turn(rules, _view("deploy 42"), _counter()).turn.text == "deploying"
    assert choose_turn(rules, _view("say hello"), _counter()).turn.text == "hi"
    nothing = choose_turn(rules, _view("other"), _counter())
    assert nothing.rule_index is None
    assert build_answer(nothing, _view("other"), request_size=10, working_directory=None).text == NO_RULE_TEXT


def test_position_picks_answer_turns_and_running_out_says_so():
    rules = _rules({"text": "one"}, {"text": "two"})
    assert choose_turn(rules, _view(position=1), _counter()).turn.text == "two"
    out = choose_turn(rules, _view(position=2), _counter())
    assert out.turn is None and build_answer(out, _view(), request_size=1, working_directory=None).text == NO_TURN_TEXT


def test_fault_answers_one_attempt_then_the_retry_gets_the_next_turn():
    rules = _rules({"error": {"status": 500}, "times": 2}, {"malformed": True}, {"text": "ok"})
    attempts = _counter()
    seen = [choose_turn(rules, _view(), attempts).turn_index for _ in range(5)]
    assert seen == [0, 0, 1, 2, 2]


def test_trailing_fault_answers_every_later_attempt():
    rules = _rules({"text": "first"}, {"error": {"status": 500}})
    attempts = _counter()
    assert [choose_turn(rules, _view(position=1), attempts).turn_index for _ in range(4)] == [1, 1, 1, 1]


def test_templates_fill_text_and_nested_arguments_with_literal_braces():
    rules = _rules(
        {
            "text": "{prompt} -> {last_tool_result} {{ok}}",
            "tool_calls": [
                {"name": "create", "arguments": {"path": "{working_directory}/a", "list": ["{prompt}", 1]}},
                {"name": "view", "arguments": {}, "id": "mine"},
            ],
        }
    )
    view = _view("make it", tool="done")
    answer = build_answer(choose_turn(rules, view, _counter()), view, request_size=400, working_directory="/wd")
    assert answer.text == "make it -> done {ok}"
    assert [c.id for c in answer.tool_calls] == ["call_0_0_0", "mine"]
    assert json.loads(answer.tool_calls[0].arguments) == {"path": "/wd/a", "list": ["make it", 1]}
    expected_out = -(-len(answer.text + "create" + answer.tool_calls[0].arguments + "view{}") // 4)
    assert answer.usage == {"input_tokens": 100, "output_tokens": expected_out}


def test_usage_null_omits_usage():
    rules = _rules({"text": "x", "usage": None})
    assert (
        build_answer(choose_turn(rules, _view(), _counter()), _view(), request_size=1, working_directory=None).usage
        is None
    )


def _ctx(cancel: asyncio.Event | None = None) -> CopilotRequestContext:
    return CopilotRequestContext(
        request_id="r",
        transport="http",
        url="http://x/v1/chat/completions",
        headers={},
        cancel_event=cancel or asyncio.Event(),
        session_id="s",
        agent_id="s",
    )


def _chat_request(prompt: str, *, stream: bool = False) -> httpx.Request:
    body = {"messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": prompt}], "stream": stream}
    return httpx.Request(
        "POST", "http://x/v1/chat/completions", json=body, headers={"authorization": "Bearer sk-should-not-be-kept"}
    )


async def test_error_turn_is_an_openai_error_with_retry_after():
    endpoint = ScriptedModel([{"turns": [{"error": {"status": 429, "message": "slow", "retry_after": 2}}]}]).endpoint()
    response = await endpoint.send_request(_chat_request("go"), _ctx())
    assert response.status_code == 429 and response.headers["retry-after"] == "2"
    assert response.json()["error"]["message"] == "slow"
    assert "sk-should-not-be-kept" not in repr(endpoint.calls)


async def test_missing_working_directory_fails_the_call_clearly():
    endpoint = ScriptedModel([{"turns": [{"text": "{working_directory}"}]}]).endpoint()
    response = await endpoint.send_request(_chat_request("go"), _ctx())
    assert response.status_code == 500
    assert "rules[0].turns[0]: template {working_directory} has no value" in response.json()["error"]["message"]


async def test_delay_ends_as_soon_as_the_request_is_cancelled():
    endpoint = ScriptedModel([{"turns": [{"text": "late", "delay_s": 3600}]}]).endpoint()
    cancel = asyncio.Event()
    asyncio.get_running_loop().call_later(0.05, cancel.set)
    response = await asyncio.wait_for(endpoint.send_request(_chat_request("go"), _ctx(cancel)), 2)
    assert response.status_code == 499


async def test_malformed_and_cut_off_streams_stop_before_the_end():
    model = ScriptedModel([{"turns": [{"malformed": True}, {"cut_off": True, "text": "par"}]}])
    endpoint = model.endpoint()
    bad = (await endpoint.send_request(_chat_request("go", stream=True), _ctx())).text
    assert "data: {this is not json" in bad and "[DONE]" not in bad
    cut = (await endpoint.send_request(_chat_request("go", stream=True), _ctx())).text
    assert '"content": "par"' in cut and 'finish_reason": "stop' not in cut and "[DONE]" not in cut
