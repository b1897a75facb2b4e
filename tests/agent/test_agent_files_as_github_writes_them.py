"""`.agent.md` files in the layouts GitHub users write, and agent YAML mistakes users make."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from copilot_eval import CopilotEval
from copilot_eval.agent import AgentFileError, CustomAgent

AGENTS = Path(__file__).parent / "data" / ".github" / "agents"


def test_front_matter_with_target_argument_hint_tool_patterns_and_handoffs_is_accepted() -> None:
    agent = CustomAgent.from_file(AGENTS / "acceptance.agent.md")
    assert agent.name == "Acceptance" and agent.file_stem == "acceptance"
    assert agent.target == "vscode" and agent.argument_hint.startswith("Name the plan")
    assert "git/*" in agent.tools and "execute/*" in agent.tools
    assert [h["agent"] for h in agent.handoffs] == ["Planner", "release"]
    assert agent.warnings == () and agent.ignored == {}
    assert agent.session_config()["tools"] == list(agent.tools)


def test_tools_as_one_comma_separated_string_and_invocation_switches() -> None:
    agent = CustomAgent.from_file(AGENTS / "release.agent.md")
    assert agent.tools == ("Read", "Edit", "Bash")
    assert agent.user_invocable is True and agent.disable_model_invocation is True
    config = agent.session_config()
    assert config["infer"] is False and config["disable_model_invocation"] is True, "the model may not pick it"


def test_model_list_mcp_servers_and_unknown_keys() -> None:
    agent = CustomAgent.from_file(AGENTS / "triage.agent.md")
    assert agent.model == ("claude-sonnet-4.5", "gpt-4.1") and agent.preferred_model == "claude-sonnet-4.5"
    assert agent.agents == ("Acceptance", "release")
    config = agent.session_config()
    assert config["model"] == "claude-sonnet-4.5"
    assert config["mcp_servers"]["tracker"]["command"] == "tracker-mcp"
    assert config["mcp_servers"]["tracker"]["tools"] == ["list_issues", "add_label"]
    assert agent.ignored == {"metadata": {"owner": "support-team"}, "compatibility": ["copilot", "claude"]}
    assert len(agent.warnings) == 2 and all("ignored" in w for w in agent.warnings)


def test_a_custom_agent_is_named_by_front_matter_name_or_file_stem(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text(
        "model: gpt-4.1\ncustom_agents: [acceptance, .github/agents/triage.agent.md]\n"
    )
    (tmp_path / ".github").symlink_to(AGENTS.parent)
    agent = CopilotEval.from_file(tmp_path / "agent.yaml")
    acceptance, triage = agent.custom_agents
    assert acceptance.matches("Acceptance") and acceptance.matches("acceptance")
    assert triage.names == ("Issue Triage", "triage")


def test_all_problems_of_an_agent_md_file_are_reported_at_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.agent.md"
    bad.write_text("---\ntools: 7\ninfer: sometimes\nmodel: []\nmcp-servers:\n  x:\n    args: '--flag'\n---\nBody\n")
    with pytest.raises(ValueError, match=r"bad\.agent\.md") as caught:
        CustomAgent.from_file(bad)
    message = str(caught.value)
    for key in ("tools:", "infer:", "model:", "mcp-servers:"):
        assert f"{bad}: {key}" in message
    assert "mcp-servers.x.args: expected a list of strings, got '--flag'" in message
    assert f"{bad}: description: required" in message  # the runtime's loader skips it for that too


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            {"command": "uvx", "args": "--repository /tmp"},
            "mcp_servers.git.args: expected a list of strings, got '--repository /tmp'",
        ),
        ({"command": ["uvx", "mcp-server-git"]}, "mcp_servers.git.command: expected the program to run as a string"),
        ({"command": "uvx", "env": "TOKEN=1"}, "mcp_servers.git.env: expected a mapping of names to string values"),
        ({"url": "localhost:8000/mcp"}, "mcp_servers.git.url: expected an http:// or https:// URL"),
        ({"command": "uvx", "arg": ["x"]}, "mcp_servers.git.arg: unknown key 'arg' (did you mean 'args'?)"),
        ({"command": "uvx", "url": "http://x"}, "give either 'command'"),
    ],
)
def test_a_malformed_server_entry_is_refused_at_once_naming_the_field(entry: dict, expected: str) -> None:
    started = time.monotonic()
    with pytest.raises(ValidationError) as caught:
        CopilotEval(model="gpt-4.1", mcp_servers={"git": entry})
    assert expected in str(caught.value)
    assert time.monotonic() - started < 1.0


def test_agent_file_typos_get_a_did_you_mean_and_every_problem_is_listed(tmp_path: Path) -> None:
    bad = tmp_path / "agent.yaml"
    bad.write_text(
        "model: gpt-4.1\ntimout_s: 30\nmcpServers: {}\ntools: [get_weather]\n"
        "mcp_servers:\n  git:\n    command: uvx\n    args: --repository /tmp\n"
    )
    with pytest.raises(AgentFileError) as caught:
        CopilotEval.from_file(bad)
    lines = str(caught.value).splitlines()
    assert f"{bad}: timout_s: unknown key 'timout_s' (did you mean 'timeout_s'?)" in lines
    assert f"{bad}: mcpServers: unknown key 'mcpServers' (did you mean 'mcp_servers'?)" in lines
    assert any(line.startswith(f"{bad}: tools: Python tools are given in Python") for line in lines)
    assert f"{bad}: mcp_servers.git.args: expected a list of strings, got '--repository /tmp'" in lines


def test_optional_is_ours_and_never_reaches_the_sdk() -> None:
    from copilot_eval.models.choice import choose_model
    from copilot_eval.runtime.session.session_config import session_settings

    agent = CopilotEval(model="gpt-4.1", mcp_servers={"git": {"command": "uvx", "optional": True}})
    settings = session_settings(agent, choose_model(agent), working_directory="/tmp", config_directory="/tmp", tools=[])
    assert settings["mcp_servers"] == {"git": {"tools": ["*"], "command": "uvx"}}


def test_the_runtimes_own_mcp_server_keys_are_accepted_and_checked() -> None:
    servers = {
        "remote": {"type": "http", "url": "https://mcp.example.com/mcp", "auth": True, "oauthClientId": "app-1"},
        "local": {"command": "uvx", "args": ["srv"], "auth": {"redirectPort": 8123}, "excludeTools": ["rm"]},
    }
    assert CopilotEval(model="gpt-4.1", mcp_servers=servers).mcp_servers == servers
    with pytest.raises(ValidationError) as caught:
        CopilotEval(model="gpt-4.1", mcp_servers={"x": {"command": "uvx", "auth": "yes", "deferTools": "later"}})
    assert "mcp_servers.x.auth: expected true, false or {redirectPort: PORT}, got 'yes'" in str(caught.value)
    assert "mcp_servers.x.deferTools: expected auto or never, got 'later'" in str(caught.value)


def test_a_file_the_runtime_skips_is_read_but_never_given_to_the_session(tmp_path: Path) -> None:
    from copilot_eval.models.choice import choose_model
    from copilot_eval.runtime.session.session_config import session_settings

    (tmp_path / "quiet.agent.md").write_text("---\nname: quiet\n---\nNo description here.\n")
    (tmp_path / "bare.agent.md").write_text("A prompt and nothing else.\n")
    quiet, bare = (CustomAgent.from_file(tmp_path / f"{n}.agent.md") for n in ("quiet", "bare"))
    assert "description: Required" in quiet.skipped and "no YAML front matter" in bare.skipped
    assert quiet.warnings == (
        f"{tmp_path / 'quiet.agent.md'}: not loaded: the Copilot runtime's agent loader skips this file "
        "(its front matter has no description: 'description: Required'; add description: <what the agent does>)",
    )
    agent = CopilotEval(model="gpt-4.1", custom_agents=(quiet, bare))
    settings = session_settings(agent, choose_model(agent), working_directory="/tmp", config_directory="/tmp", tools=[])
    assert "custom_agents" not in settings


def test_switches_are_true_or_false_as_the_runtime_reads_them(tmp_path: Path) -> None:
    text = tmp_path / "r.agent.md"
    text.write_text("---\ndescription: d\ndisable-model-invocation: 'yes'\n---\nB\n")
    with pytest.raises(ValueError, match="disable-model-invocation: Input should be a valid boolean"):
        CustomAgent.from_file(text)
