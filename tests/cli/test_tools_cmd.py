"""`copilot-eval tools`: the exact names the model is offered, through the real runtime."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from copilot_eval import CopilotEval
from copilot_eval.cli.app import app
from copilot_eval.runtime.offered_tools import OfferedTool, classify, filter_warnings
from tests.mcp.third_party_servers import warm_server

NOTES_SERVER = Path(__file__).parents[1] / "runtime" / "mcp_notes_server.py"


@pytest.mark.runtime
def test_lists_built_in_and_mcp_tools_with_descriptions_and_warns_about_empty_filters(tmp_path: Path) -> None:
    with warm_server([sys.executable, str(NOTES_SERVER)], tmp_path) as notes:
        agent_file = tmp_path / "agent.yaml"
        agent_file.write_text(
            yaml.safe_dump(
                {
                    "model": "gpt-4.1",
                    "mcp_servers": {
                        "notes": {"command": notes[0], "args": notes[1:], "tools": ["read_note", "notes-read_note"]}
                    },
                }
            )
        )
        outcome = CliRunner().invoke(app, ["tools", str(agent_file), "--json"])
    assert outcome.exit_code == 0, outcome.output
    document = json.loads(outcome.output)
    tools = {tool["name"]: tool for tool in document["tools"]}
    assert tools["notes-read_note"]["kind"] == "mcp" and tools["notes-read_note"]["server"] == "notes"
    assert tools["notes-read_note"]["description"]
    assert tools["create"]["kind"] == "built-in" and tools["create"]["description"]
    assert [s["status"] for s in document["mcp_servers"]] == ["connected"]
    assert document["warnings"] == [
        "mcp_servers.notes.tools: 'notes-read_note' matches no tool of server 'notes'; "
        "the filter takes the server's own names: 'read_note'"
    ]


def test_python_tools_are_told_apart_from_built_in_and_mcp_tools() -> None:
    def get_balance(account: str) -> str:
        """Return the balance of one account."""
        return "12"

    agent = CopilotEval(
        model="gpt-4.1", tools=[get_balance], mcp_servers={"git": {"command": "x"}, "git-extra": {"command": "y"}}
    )
    assert classify("get_balance", "", agent).kind == "python"
    assert classify("view", "", agent).kind == "built-in"
    assert classify("git-extra-log", "", agent).server == "git-extra"
    assert classify("git-status", "", agent).server == "git"


def test_a_filter_that_matches_nothing_is_a_warning() -> None:
    agent = CopilotEval(model="gpt-4.1", mcp_servers={"git": {"command": "x", "tools": ["git_status", "*"]}})
    offered = [OfferedTool("git-git_log", "", "mcp", "git")]
    assert filter_warnings(agent, offered) == ["mcp_servers.git.tools: 'git_status' matches no tool of server 'git'"]


REVIEWER = "---\nname: reviewer\ndescription: Reviews a change for bugs.\n---\nReview the change you are given.\n"


@pytest.mark.runtime
def test_custom_agents_are_listed_with_the_task_tools_arguments(tmp_path: Path) -> None:
    (tmp_path / "reviewer.agent.md").write_text(REVIEWER, encoding="utf-8")
    agent_file = tmp_path / "agent.yaml"
    agent_file.write_text(yaml.safe_dump({"model": "gpt-4.1", "custom_agents": ["reviewer.agent.md"]}))
    outcome = CliRunner().invoke(app, ["tools", str(agent_file), "--json"])
    assert outcome.exit_code == 0, outcome.output
    [reviewer] = json.loads(outcome.output)["custom_agents"]
    assert reviewer["name"] == "reviewer" and reviewer["description"] == "Reviews a change for bugs."
    # The runtime's own task tool says what a delegation needs: the agent's name and a prompt at least.
    assert {"agent_type", "prompt"} <= set(reviewer["taskArguments"])
    assert reviewer["call"].startswith("task(agent_type='reviewer', ") and "prompt=..." in reviewer["call"]
    # A custom agent file given where an agent file belongs says what it is and how to use it.
    wrong = CliRunner().invoke(app, ["tools", str(tmp_path / "reviewer.agent.md")])
    assert wrong.exit_code == 2
    assert "this is a custom agent file" in wrong.output and "custom_agents: [reviewer.agent.md]" in " ".join(
        wrong.output.split()
    )


def test_a_custom_agent_the_model_cannot_reach_is_said() -> None:
    from copilot_eval.agent.custom_agent import CustomAgent
    from copilot_eval.runtime.offered_tools import delegates_of

    agent = CopilotEval(
        model="gpt-4.1", custom_agents=(CustomAgent(name="reviewer", prompt="Review.", description="d"),)
    )
    task = OfferedTool(
        "task", "Run a subagent.", "built-in", parameters={"required": ["agent_type", "description", "prompt"]}
    )
    [delegate], warnings = delegates_of(agent, [task])
    assert delegate.call() == "task(agent_type='reviewer', description=..., prompt=...)" and warnings == []
    _, hidden = delegates_of(agent, [OfferedTool("view", "Read a file.", "built-in")])
    assert hidden and "not offered the 'task' tool: it cannot delegate to the custom agents reviewer" in hidden[0]


def test_markdown_given_as_an_agent_file_says_what_it_is(tmp_path: Path) -> None:
    from copilot_eval.agent import AgentFileError, load_agent_file

    custom = tmp_path / "reviewer.agent.md"
    custom.write_text(REVIEWER, encoding="utf-8")
    with pytest.raises(
        AgentFileError,
        match=r"reviewer\.agent\.md: this is a custom agent file .*custom_agents: \[reviewer\.agent\.md\]",
    ):
        load_agent_file(custom)
    notes = tmp_path / "notes.instructions.md"
    notes.write_text("---\napplyTo: '**'\n---\nBe brief.\n", encoding="utf-8")
    with pytest.raises(AgentFileError, match=r"a Markdown file is not an agent file; .* under `instructions:`"):
        load_agent_file(notes)
