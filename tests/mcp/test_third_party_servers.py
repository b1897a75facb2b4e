"""Third-party MCP servers through the real runtime: their structured results are evidence.

``mcp-server-time`` and ``mcp-server-git`` (PyPI, the ``dev`` extra) and the npm
``@modelcontextprotocol/server-filesystem`` run as the agent's MCP servers; the ScriptedModel
calls one tool of each. The time and filesystem results carry ``structuredContent`` (plain
objects, not FastMCP's ``{"result": ...}``), which must become ``structured_result`` with no
capture error; the git server answers in text only.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from copilot_eval import CopilotEval, run_copilot
from tests.mcp.third_party_servers import console_script, filesystem_server, scripted, warm_server

pytestmark = pytest.mark.runtime


def _repository(folder: Path) -> Path:
    folder.mkdir()
    (folder / "notes.txt").write_text("first line\n")
    for command in (
        ["git", "init", "-q"],
        ["git", "add", "notes.txt"],
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=T", "commit", "-qm", "add notes"],
    ):
        subprocess.run(command, cwd=folder, check=True)
    return folder


async def test_time_git_and_filesystem_servers_give_structured_results(tmp_path: Path) -> None:
    repo = _repository(tmp_path / "repo")
    shared = tmp_path / "shared"
    (shared / "docs").mkdir(parents=True)
    (shared / "todo.txt").write_text("buy milk\n")
    (tmp_path / "time").mkdir()
    (tmp_path / "git").mkdir()
    node_server = filesystem_server()
    model = scripted(
        {
            "tool_calls": [
                {"name": "time-get_current_time", "arguments": {"timezone": "Europe/Paris"}},
                {"name": "git-git_status", "arguments": {"repo_path": str(repo)}},
                {"name": "files-list_directory", "arguments": {"path": str(shared)}},
            ]
        },
        {"text": "done"},
    )
    with (
        warm_server([console_script("mcp-server-time"), "--local-timezone", "UTC"], tmp_path / "time") as time_cmd,
        warm_server([console_script("mcp-server-git"), "--repository", str(repo)], tmp_path / "git") as git_cmd,
    ):
        agent = CopilotEval(
            model=model,
            timeout_s=120,
            mcp_servers={
                "time": {"command": time_cmd[0], "args": time_cmd[1:]},
                "git": {"command": git_cmd[0], "args": git_cmd[1:]},
                "files": {"command": node_server[0], "args": [*node_server[1:], str(shared)]},
            },
        )
        result = await run_copilot(agent, "What time is it in Paris, what is the git status, what is shared?")

    assert result.success, result.error
    assert result.capture_errors == [] and result.evidence_complete
    servers = {server.name: server for server in result.mcp_servers}
    assert {name: server.status for name, server in servers.items()} == {
        "time": "connected",
        "git": "connected",
        "files": "connected",
    }
    assert servers["time"].tools_loaded == 2 and servers["files"].tools_loaded and servers["git"].tools_loaded

    (now,) = result.tool_calls_for("time-get_current_time")
    assert now.success and now.mcp_server_name == "time"
    assert now.structured_result["timezone"] == "Europe/Paris"
    assert set(now.structured_result) >= {"datetime", "day_of_week", "is_dst"}

    # The git server answers in text only: nothing structured is invented.
    (status,) = result.tool_calls_for("git-git_status")
    assert status.success and "working tree clean" in status.result and status.structured_result is None

    (listing,) = result.tool_calls_for("files-list_directory")
    assert listing.success
    assert "[FILE] todo.txt" in str(listing.structured_result) and "[DIR] docs" in str(listing.structured_result)
