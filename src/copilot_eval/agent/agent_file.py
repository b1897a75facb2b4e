"""Agent files: a CopilotEval written as YAML, so the command line can name an agent.

Relative paths (scripted model, custom agents, skill directories, working directory) are taken
relative to the agent file. In MCP server commands and arguments, ``{agent_dir}`` is the agent
file's folder and ``{python}`` the running Python interpreter.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from copilot_eval.agent.config import CopilotEval
from copilot_eval.agent.custom_agent import CustomAgent


class AgentFileError(ValueError):
    """An agent file that cannot be used; the message names the file and the field."""


def _model_from_block(value: Any, base: Path, file: Path) -> dict[str, Any]:
    """Translate the `model:` entry into CopilotEval fields."""
    if value is None or isinstance(value, str):
        return {"model": value}
    if not isinstance(value, dict):
        raise AgentFileError(f"{file}: model: must be a model name or a mapping")
    unknown = set(value) - {"scripted", "name", "provider"}
    if unknown:
        raise AgentFileError(f"{file}: model: unknown key(s) {sorted(unknown)} (expected scripted, name, provider)")
    if "scripted" in value:
        from copilot_eval.models.scripted import ScriptedModel

        script_path = base / str(value["scripted"])
        if not script_path.is_file():
            raise AgentFileError(f"{file}: model.scripted: file not found: {script_path}")
        return {"model": ScriptedModel.from_file(script_path)}
    fields: dict[str, Any] = {"model": value.get("name")}
    if "provider" in value:
        fields["provider"] = value["provider"]
    return fields


def _resolve_placeholders(value: Any, base: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{agent_dir}", str(base)).replace("{python}", sys.executable)
    if isinstance(value, list):
        return [_resolve_placeholders(item, base) for item in value]
    if isinstance(value, dict):
        return {key: _resolve_placeholders(item, base) for key, item in value.items()}
    return value


def load_agent_file(path: str | Path) -> CopilotEval:
    """Read an agent YAML file into a CopilotEval, with errors naming the file and field."""
    file = Path(path)
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AgentFileError(f"{file}: agent file not found") from None
    except UnicodeDecodeError as error:
        raise AgentFileError(f"{file}: byte {error.start + 1} is not UTF-8; save the file as UTF-8") from None
    except OSError as error:
        raise AgentFileError(f"{file}: cannot read: {error.strerror or error}") from None
    except yaml.YAMLError as error:
        raise AgentFileError(f"{file}: not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise AgentFileError(f"{file}: an agent file is a mapping of fields (name, model, instructions, ...)")
    base = file.resolve().parent
    fields = dict(data)
    fields.update(_model_from_block(fields.pop("model", None), base, file))
    if "custom_agents" in fields:
        agents = []
        for entry in fields["custom_agents"] or []:
            try:
                agents.append(CustomAgent.from_file(base / entry) if isinstance(entry, str) else CustomAgent(**entry))
            except (OSError, ValueError, TypeError) as error:
                raise AgentFileError(f"{file}: custom_agents: {error}") from None
        fields["custom_agents"] = tuple(agents)
    for key in ("skill_directories",):
        if key in fields:
            fields[key] = tuple(base / entry for entry in fields[key] or [])
    if fields.get("working_directory"):
        fields["working_directory"] = base / fields["working_directory"]
    if "mcp_servers" in fields:
        fields["mcp_servers"] = _resolve_placeholders(fields["mcp_servers"] or {}, base)
    try:
        return CopilotEval(**fields)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            where = ".".join(str(part) for part in item["loc"]) or "agent"
            problems.append(f"{file}: {where}: {item['msg']}")
        raise AgentFileError("\n".join(problems)) from None
