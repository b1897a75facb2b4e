"""CopilotEval and agent files: bad input fails early with the file and field named."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from copilot_eval import CopilotEval, ScriptedModel
from copilot_eval.agent import AgentFileError, CustomAgent
from copilot_eval.models.scripted import InvalidScriptError as ScriptError

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.mark.parametrize(
    ("fields", "field_name"),
    [
        ({"timeout_s": 0}, "timeout_s"),
        ({"max_tool_calls": -1}, "max_tool_calls"),
        ({"system_message_mode": "prepend"}, "system_message_mode"),
        ({"reasoning_effort": "extreme"}, "reasoning_effort"),
        ({"permission_policy": "ask_me"}, "permission_policy"),
        ({"model": 42}, "model"),
        ({"modle": "gpt-4.1"}, "modle"),
        ({"mcp_servers": {"notes": {"args": []}}}, "mcp_servers"),
    ],
)
def test_invalid_values_fail_at_construction_naming_the_field(fields: dict, field_name: str) -> None:
    with pytest.raises(ValidationError) as caught:
        CopilotEval(**fields)
    assert field_name in str(caught.value)


def test_replace_mode_needs_instructions() -> None:
    with pytest.raises(ValidationError, match="replace"):
        CopilotEval(system_message_mode="replace")


def test_the_config_is_immutable() -> None:
    agent = CopilotEval(model="gpt-4.1")
    with pytest.raises(ValidationError):
        agent.timeout_s = 1  # type: ignore[misc]
    assert agent.with_options(timeout_s=5).timeout_s == 5 and agent.timeout_s == 120


def test_the_quickstart_agent_file_loads_with_paths_resolved() -> None:
    agent = CopilotEval.from_file(EXAMPLES / "quickstart" / "agent.yaml")
    assert agent.name == "bike-shop-assistant"
    assert isinstance(agent.model, ScriptedModel)
    args = agent.mcp_servers["orders"]["args"]
    assert Path(args[0]).is_file() and "{agent_dir}" not in args[0]


def test_agent_file_errors_name_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "agent.yaml"
    bad.write_text("name: x\nmodel: gpt-4.1\ntimeout_s: -3\nfavourite_colour: blue\n")
    with pytest.raises(AgentFileError) as caught:
        CopilotEval.from_file(bad)
    message = str(caught.value)
    assert f"{bad}: timeout_s:" in message and f"{bad}: favourite_colour:" in message


def test_a_missing_script_is_named(tmp_path: Path) -> None:
    agent_file = tmp_path / "agent.yaml"
    agent_file.write_text("model: {scripted: nowhere.yaml}\n")
    with pytest.raises(AgentFileError, match=r"model.scripted: file not found"):
        CopilotEval.from_file(agent_file)


def test_a_bad_script_names_rule_turn_and_field(tmp_path: Path) -> None:
    script = tmp_path / "script.yaml"
    script.write_text("rules:\n  - turns:\n      - txt: hello\n")
    agent_file = tmp_path / "agent.yaml"
    agent_file.write_text("model: {scripted: script.yaml}\n")
    with pytest.raises(ScriptError, match=r"rules\[0\]\.turns\[0\].*'txt'"):
        CopilotEval.from_file(agent_file)


def test_a_script_written_inline_is_read_like_a_script_file(tmp_path: Path) -> None:
    agent_file = tmp_path / "agent.yaml"
    agent_file.write_text("model:\n  scripted:\n    rules:\n      - turns:\n          - text: hello\n")
    model = CopilotEval.from_file(agent_file).model
    assert isinstance(model, ScriptedModel) and len(model.rules) == 1
    agent_file.write_text("model: {scripted: {rules: [{turns: [{txt: hello}]}]}}\n")
    with pytest.raises(AgentFileError, match=r"agent.yaml: model.scripted.*rules\[0\]\.turns\[0\].*'txt'"):
        CopilotEval.from_file(agent_file)
    agent_file.write_text("model: {scripted: 3}\n")
    with pytest.raises(
        AgentFileError, match=r"model.scripted: give a script file's path, or the script's rules inline"
    ):
        CopilotEval.from_file(agent_file)


def test_custom_agent_files_are_front_matter_and_a_prompt(tmp_path: Path) -> None:
    (tmp_path / "reviewer.agent.md").write_text(
        "---\ndescription: Reviews diffs\ntools: [view, grep]\n---\nYou review code carefully.\n"
    )
    (tmp_path / "agent.yaml").write_text("model: gpt-4.1\ncustom_agents: [reviewer.agent.md]\n")
    agent = CopilotEval.from_file(tmp_path / "agent.yaml")
    (reviewer,) = agent.custom_agents
    assert reviewer.name == "reviewer" and reviewer.prompt == "You review code carefully."
    assert reviewer.session_config() == {
        "name": "reviewer",
        "prompt": "You review code carefully.",
        "description": "Reviews diffs",
        "tools": ["view", "grep"],
    }


def test_a_custom_agent_without_closing_front_matter_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.agent.md"
    broken.write_text("---\ndescription: never closed\n")
    with pytest.raises(ValueError, match="no closing"):
        CustomAgent.from_file(broken)


def test_usage_budgets_are_fields_of_the_agent_and_of_its_file(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text("max_tokens: 5000\nmax_premium_requests: 2.5\nmax_ai_credits: 40\n")
    agent = CopilotEval.from_file(tmp_path / "agent.yaml")
    assert (agent.max_tokens, agent.max_premium_requests, agent.max_ai_credits) == (5000, 2.5, 40)
    with pytest.raises(ValidationError, match="max_tokens"):
        CopilotEval(max_tokens=0)
    with pytest.raises(ValidationError, match="max_premium_requests"):
        CopilotEval(max_premium_requests=-1)


def test_a_credit_limit_below_the_runtimes_minimum_is_refused_before_any_runtime_starts(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="smallest session limit is 30 AI credits, got 5"):
        CopilotEval(max_ai_credits=5)
    (tmp_path / "agent.yaml").write_text("max_ai_credits: 1\n")
    with pytest.raises(AgentFileError, match=r"agent.yaml: max_ai_credits: .*30 AI credits"):
        CopilotEval.from_file(tmp_path / "agent.yaml")


@pytest.mark.parametrize("key", ["working_directory", "user_instructions_dir"])
def test_a_folder_field_that_is_not_text_is_a_problem_naming_it(tmp_path: Path, key: str) -> None:
    # The fuzzing found `working_directory: -1` raising a TypeError instead of a problem of the file.
    path = tmp_path / "agent.yaml"
    path.write_text(f"name: a\nmodel:\n  scripted:\n    rules: []\n{key}: -1\n")
    with pytest.raises(AgentFileError, match=rf"{key}: give a folder path \(text\), not int -1"):
        CopilotEval.from_file(path)


def test_custom_agents_that_are_not_a_list_are_a_problem_naming_the_field(tmp_path: Path) -> None:
    # The fuzzing found `custom_agents: -1` raising a TypeError instead of a problem of the file.
    path = tmp_path / "agent.yaml"
    path.write_text("name: a\nmodel:\n  scripted:\n    rules: []\ncustom_agents: -1\n")
    with pytest.raises(AgentFileError, match=r"custom_agents: expected a list of agent files or fields, got -1"):
        CopilotEval.from_file(path)
