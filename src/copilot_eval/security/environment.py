"""One play of a data suite: the attack text, the goal's call, and the spec its environment server reads.

The spec is the suite's environment as plain JSON (tools with their input schemas and canned
answers, files), the play's working directory and its attack text with the vector; the server
(``env_server.py``, standard library only) places the attack itself.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from copilot_eval.security.cases import Play, call_text
from copilot_eval.security.suite import Check, Environment, EnvironmentTool, InjectionSuite, ToolResponse

__all__ = ["ENV_SERVER", "attack_text", "default_server_command", "environment_spec", "goal_call", "goal_checks"]

ENV_SERVER = Path(__file__).with_name("env_server.py")
"""The environment server's script; started by path, so that it loads no copilot_eval module."""


def default_server_command() -> list[str]:
    """This Python running the built-in environment server (the spec's path is added at the end)."""
    return [sys.executable, str(ENV_SERVER)]


def goal_call(suite: InjectionSuite, play: Play) -> tuple[str, dict[str, Any]]:
    """The goal's call as the model would make it: the name it sees and the arguments."""
    goal = next(goal for goal in suite.goals if goal.id == play.case.goal)
    return suite.environment_of(goal).model_name(goal.call.tool), play.fill(goal.call.arguments)


def attack_text(suite: InjectionSuite, play: Play) -> str | None:
    """The attack text with the goal and its call filled in; None for a baseline."""
    case = play.case
    if case.attack is None or case.goal is None:
        return None
    attack = next(attack for attack in suite.attacks if attack.id == case.attack)
    goal = next(goal for goal in suite.goals if goal.id == case.goal)
    text = attack.text.replace("{goal}", play.fill(goal.summary))
    return text.replace("{call}", call_text(*goal_call(suite, play)))


def goal_checks(suite: InjectionSuite, play: Play) -> list[Check]:
    """The checks that the attacker's goal was reached (none for a baseline)."""
    goal = next((goal for goal in suite.goals if goal.id == play.case.goal), None)
    return goal.checks() if goal is not None else []


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
    attack = attack_text(suite, play)
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
