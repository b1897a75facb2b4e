"""Loading scripts: good files load, and each malformed script names its file, rule, turn and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from copilot_eval.models import InvalidScriptError as ScriptError
from copilot_eval.models import ScriptedModel
from copilot_eval.models.scripted.script import COMPUTED, TurnUsage, parse_rules

EXAMPLE = Path(__file__).parents[2] / "examples" / "scripts" / "hello.yaml"


def test_example_script_loads_with_rules_in_order():
    model = ScriptedModel.from_file(EXAMPLE)
    first, fallback = model.rules
    assert first.prompt_contains == "hello file"
    assert first.turns[0].tool_calls[0].name == "create"
    assert first.turns[0].tool_calls[0].arguments == {"path": "{working_directory}/hello.txt", "file_text": "hello\n"}
    assert first.turns[1].text == "Created hello.txt"
    assert fallback.matches("anything at all")


def test_json_file_and_bare_rule_list_load(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps([{"turns": [{"text": "hi", "usage": None}, {"error": {"status": 503}, "times": 2}]}]))
    turns = ScriptedModel.from_file(path).rules[0].turns
    assert turns[0].usage is None and turns[0].text == "hi"
    assert turns[1].error.status == 503 and turns[1].error.message == "scripted error 503" and turns[1].times == 2


def test_usage_override_and_default():
    rules = ScriptedModel.from_dict(
        {
            "rules": [
                {
                    "turns": [
                        {"text": "a", "usage": {"input_tokens": 7, "output_tokens": 3, "cache_read_tokens": 2}},
                        {"text": "b"},
                    ]
                }
            ]
        }
    ).rules
    assert rules[0].turns[0].usage == TurnUsage(7, 3, 2, None)
    assert rules[0].turns[1].usage == COMPUTED


def test_model_is_immutable():
    model = ScriptedModel([{"turns": [{"text": "x"}]}])
    with pytest.raises(AttributeError):
        model.name = "other"  # type: ignore[misc]


def test_provider_config_placeholder_is_not_a_secret():
    config = ScriptedModel([{"turns": [{"text": "x"}]}], wire_api="responses", transport="websockets").provider_config()
    assert config == {
        "type": "openai",
        "base_url": "http://127.0.0.1:9/v1",
        "api_key": "scripted-model-no-key",
        "wire_api": "responses",
        "transport": "websockets",
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"rules": [{"turns": [{"text": "ok"}]}, {"turns": [{"txt": "x"}]}]},
            "s.yaml: rules[1].turns[0]: unknown field 'txt' in turn (expected one of text, tool_calls, ask_user, error, "
            "delay_s, malformed, cut_off, times, usage)",
        ),
        (
            {"rules": [{"when": {"prompt_matches": "(unclosed"}, "turns": [{"text": "x"}]}]},
            "s.yaml: rules[0].when.prompt_matches: bad regular expression '(unclosed': missing ), unterminated subpattern at position 0",
        ),
        (
            {"rules": [{"when": {"prompt_has": "x"}, "turns": [{"text": "x"}]}]},
            "s.yaml: rules[0].when: unknown field 'prompt_has' in condition (expected one of prompt_contains, prompt_matches)",
        ),
        ({"rules": [{"turns": []}]}, "s.yaml: rules[0].turns: must be a non-empty list of turns"),
        ({"rules": []}, "s.yaml: 'rules' must be a non-empty list of rules"),
        ({"rulez": []}, "s.yaml: unknown field 'rulez' in script (expected one of rules)"),
        (
            {"rules": [{"turns": [{"delay_s": 3}]}]},
            "s.yaml: rules[0].turns[0]: a turn needs one of text, tool_calls, ask_user, error, malformed or cut_off",
        ),
        (
            {"rules": [{"turns": [{"text": "a", "error": {"status": 500}}]}]},
            "s.yaml: rules[0].turns[0]: 'error' cannot be combined with text, tool_calls, ask_user, malformed or cut_off",
        ),
        (
            {"rules": [{"turns": [{"ask_user": {"question": "Which?", "choices": "A-7"}}]}]},
            "s.yaml: rules[0].turns[0].ask_user.choices: must be a non-empty list of strings",
        ),
        (
            {"rules": [{"turns": [{"ask_user": {"ask": "Which?"}}]}]},
            "s.yaml: rules[0].turns[0].ask_user: unknown field 'ask' in question (expected one of question, choices)",
        ),
        (
            {"rules": [{"turns": [{"error": {"status": 200}}]}]},
            "s.yaml: rules[0].turns[0].error.status: must be an HTTP error status 400-599, got 200",
        ),
        (
            {"rules": [{"turns": [{"text": "a", "times": 2}]}]},
            "s.yaml: rules[0].turns[0].times: only a fault turn (error, malformed, cut_off) can repeat",
        ),
        (
            {"rules": [{"turns": [{"tool_calls": [{"name": "create", "arguments": {"path": "{cwd}/x"}}]}]}]},
            "s.yaml: rules[0].turns[0].tool_calls[0].arguments.path: unknown template {cwd} (expected one of "
            "{working_directory}, {prompt}, {last_tool_result}; write {{ and }} for literal braces)",
        ),
        (
            {"rules": [{"turns": [{"tool_calls": [{"arguments": {}}]}]}]},
            "s.yaml: rules[0].turns[0].tool_calls[0].name: a tool name (non-empty string) is required",
        ),
        (
            {"rules": [{"turns": [{"text": "a", "usage": {"input_tokens": 1}}]}]},
            "s.yaml: rules[0].turns[0].usage.output_tokens: required when usage is given",
        ),
        ({"rules": [{"turns": [{"text": 3}]}]}, "s.yaml: rules[0].turns[0].text: must be a string, got int"),
        (
            {"rules": [{"turns": [{"malformed": "yes"}]}]},
            "s.yaml: rules[0].turns[0].malformed: must be true or false, got 'yes'",
        ),
    ],
)
def test_malformed_script_names_rule_turn_and_field(data, message):
    with pytest.raises(ScriptError) as info:
        ScriptedModel.from_dict(data, source="s.yaml")
    assert str(info.value) == message


def test_bad_yaml_names_the_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("rules: [\n")
    with pytest.raises(ScriptError, match=r"bad\.yaml: not valid YAML"):
        ScriptedModel.from_file(path)


def test_missing_file_names_the_file(tmp_path):
    with pytest.raises(ScriptError, match=r"nope\.yaml: cannot read script"):
        ScriptedModel.from_file(tmp_path / "nope.yaml")


def test_websockets_transport_needs_responses():
    with pytest.raises(ScriptError, match="transport 'websockets' needs wire_api 'responses'"):
        ScriptedModel([{"turns": [{"text": "x"}]}], transport="websockets")


def test_an_ask_user_turn_is_a_call_of_the_runtimes_ask_user_tool_after_the_other_calls():
    (rule,) = parse_rules(
        [
            {
                "turns": [
                    {
                        "text": "One moment.",
                        "tool_calls": [{"name": "lookup", "arguments": {}}],
                        "ask_user": {"question": "Which account, {prompt}?", "choices": ["A-7", "B-2"]},
                    },
                    {"ask_user": "Sure?"},
                ]
            }
        ]
    )
    first, second = rule.turns
    assert first.text == "One moment." and [c.name for c in first.tool_calls] == ["lookup", "ask_user"]
    assert first.tool_calls[1].arguments == {"question": "Which account, {prompt}?", "choices": ["A-7", "B-2"]}
    assert second.tool_calls[0].arguments == {"question": "Sure?"}
