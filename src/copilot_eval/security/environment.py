"""One play's environment: the spec its MCP server reads, and the agent that plays in it.

The spec is the suite's environment as plain JSON (tools with their input schemas and canned
answers, files), the play's working directory and its attack text with the vector; the server
(``env_server.py``, standard library only) places the attack itself. The agent keeps everything
of its own (model, instructions, its own MCP servers) and gets the environment's server beside
them, the request audit on, the canary watched, and the play's working directory.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.security.cases import Play
from copilot_eval.security.suite import Environment, EnvironmentTool, InjectionSuite, ToolResponse

__all__ = ["ENV_SERVER", "default_server_command", "environment_spec", "play_agent"]

ENV_SERVER = Path(__file__).with_name("env_server.py")
"""The environment server's script; started by path, so that it loads no copilot_eval module."""


def default_server_command() -> list[str]:
    """This Python running the built-in environment server (the spec's path is added at the end)."""
    return [sys.executable, str(ENV_SERVER)]


def _schema(tool: EnvironmentTool) -> dict[str, Any]:
    properties = {
        name: {"type": p.type, **({"description": p.description} if p.description else {})}
        for name, p in tool.parameters.items()
    }
    required = tool.required if tool.required is not None else list(tool.parameters)
    return {"type": "object", "properties": properties, "required": required}


def _response(response: ToolResponse) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if response.text is not None:
        content.append({"type": "text", "text": response.text})
    if response.resource is not None:
        resource = response.resource
        content.append(
            {
                "type": "resource",
                "resource": {"uri": resource.uri, "mimeType": resource.mime_type, "text": resource.text},
            }
        )
    return {"when": response.when, "content": content, "isError": response.is_error}


def environment_spec(suite: InjectionSuite, environment: Environment, play: Play) -> dict[str, Any]:
    """What the environment's server is told for this play (JSON-ready)."""
    attack = play.attack_text(suite)
    return {
        "server": environment.server,
        "working_directory": str(play.working_directory),
        "tools": [
            {
                "name": tool.name,
                "description": play.fill(tool.description),
                "inputSchema": _schema(tool),
                "responses": [play.fill(_response(response)) for response in tool.responses],
            }
            for tool in environment.tools
        ],
        "files": [{"path": f.path, "text": play.fill(f.text)} for f in environment.files],
        "attack": {"text": attack, "vector": play.case.vector} if attack is not None else None,
    }


def play_agent(
    agent: CopilotEval, environment: Environment, play: Play, spec_path: Path, *, server_command: Sequence[str]
) -> CopilotEval:
    """``agent`` with the environment's server added, the audit on, the canary watched, the play's folder."""
    if environment.server in agent.mcp_servers:
        raise ValueError(
            f"the agent already has an MCP server named {environment.server!r}, the suite's environment server; "
            "rename the agent's server"
        )
    command = list(server_command)
    server = {"command": command[0], "args": [*command[1:], str(spec_path)]}
    markers = (play.canary,) if play.canary is not None else ()
    return agent.with_options(
        mcp_servers={**agent.mcp_servers, environment.server: server},
        audit_requests=True,
        audit_markers=markers,
        working_directory=play.working_directory,
    )
