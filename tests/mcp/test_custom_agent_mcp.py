"""A custom agent's own `mcp-servers` reach the runtime: the child calls its server's tool."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.agent import CustomAgent
from tests.mcp.third_party_servers import warm_server

pytestmark = pytest.mark.runtime

NOTES_SERVER = Path(__file__).parents[1] / "runtime" / "mcp_notes_server.py"


async def test_the_custom_agent_uses_its_own_mcp_server(tmp_path: Path) -> None:
    with warm_server([sys.executable, str(NOTES_SERVER)], tmp_path) as notes:
        front = {
            "name": "note-reader",
            "description": "Reads notes for the user.",
            "target": "vscode",
            "argument-hint": "the note's title",
            "model": ["scripted-model"],
            "mcp-servers": {"notes": {"type": "local", "command": notes[0], "args": notes[1:], "tools": ["read_note"]}},
            "metadata": {"team": "docs"},
        }
        file = tmp_path / "note-reader.agent.md"
        file.write_text(f"---\n{yaml.safe_dump(front)}---\nYou read notes. subtask mode.\n")
        custom = CustomAgent.from_file(file)
        model = ScriptedModel.from_dict(
            {
                "rules": [
                    {
                        "when": {"prompt_contains": "subtask"},
                        "turns": [
                            {"tool_calls": [{"name": "notes-read_note", "arguments": {"title": "groceries"}}]},
                            {"text": "the note says: {last_tool_result}"},
                        ],
                    },
                    {
                        "turns": [
                            {
                                "tool_calls": [
                                    {
                                        "name": "task",
                                        "arguments": {
                                            "description": "read a note",
                                            "name": "reader",
                                            "prompt": "subtask: read groceries",
                                            "agent_type": "note-reader",
                                        },
                                    }
                                ]
                            },
                            {"text": "child said: {last_tool_result}"},
                        ]
                    },
                ]
            }
        )
        result = await run_copilot(CopilotEval(model=model, custom_agents=(custom,), timeout_s=90), "read my note")
    assert result.success, result.error
    assert any("metadata" in warning for warning in result.warnings), "the ignored key is reported"
    (invocation,) = result.subagent_invocations
    child = invocation.result
    assert child is not None
    (read,) = child.tool_calls_for("notes-read_note")
    assert read.success and "milk, bread" in read.result
