"""A server that cannot start is not a silent success: status recorded, run ended before the model."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from copilot_eval import CopilotEval, run_copilot
from tests.mcp.third_party_servers import scripted, warm_server

pytestmark = pytest.mark.runtime

NOTES_SERVER = Path(__file__).parents[1] / "runtime" / "mcp_notes_server.py"
CRASHING = {
    "command": sys.executable,
    "args": ["-c", "import sys; print('no config file', file=sys.stderr); sys.exit(3)"],
}


async def test_a_missing_binary_ends_the_run_before_any_model_call() -> None:
    agent = CopilotEval(
        model=scripted({"text": "I should never be asked"}),
        timeout_s=60,
        mcp_servers={"git": {"command": "/nonexistent/bin/mcp-server-git", "args": []}},
    )
    result = await run_copilot(agent, "hello")
    assert result.success is False and result.stop_reason == "execution_error"
    assert "MCP server 'git' could not start" in result.error and "No such file or directory" in result.error
    (server,) = result.mcp_servers
    assert server.name == "git" and server.status == "failed" and server.tools_loaded is None
    assert result.usage == [] and result.final_response is None, "no model call was made"


async def test_an_optional_server_that_crashes_is_a_warning_and_the_run_goes_on(tmp_path: Path) -> None:
    with warm_server([sys.executable, str(NOTES_SERVER)], tmp_path) as notes:
        agent = CopilotEval(
            model=scripted({"text": "answered without the broken server"}),
            timeout_s=60,
            mcp_servers={
                "broken": {**CRASHING, "optional": True},
                "notes": {"command": notes[0], "args": notes[1:]},
            },
        )
        result = await run_copilot(agent, "hello")
    assert result.success, result.error
    assert result.final_response == "answered without the broken server"
    servers = {server.name: server for server in result.mcp_servers}
    assert servers["broken"].status == "failed" and servers["broken"].optional
    assert "exit code 3" in servers["broken"].error and "no config file" in servers["broken"].error
    assert servers["notes"].status == "connected" and servers["notes"].tools_loaded
    assert any("'broken' could not start" in warning and "optional" in warning for warning in result.warnings)


async def test_a_required_server_that_crashes_at_start_names_its_exit() -> None:
    agent = CopilotEval(model=scripted({"text": "never"}), timeout_s=60, mcp_servers={"broken": CRASHING})
    result = await run_copilot(agent, "hello")
    assert result.stop_reason == "execution_error"
    assert "'broken' could not start" in result.error and "exit code 3" in result.error
    assert "optional: true" in result.error, "the error says how to run without the server"
