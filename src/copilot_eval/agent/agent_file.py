"""Agent files: a CopilotEval written as YAML, so the command line can name an agent.

Relative paths (scripted model, custom agents, skill directories, working directory) are taken
relative to the agent file. In MCP server commands and arguments, ``{agent_dir}`` is the agent
file's folder and ``{python}`` the running Python interpreter.

This module turns the file into CopilotEval fields and never imports CopilotEval itself:
``CopilotEval.from_file`` (and ``load_agent_file``) build the agent from these fields, so the two
modules depend one way only.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from copilot_eval.agent.custom_agent import CustomAgent
from copilot_eval.agent.mcp_config import mcp_server_problems
from copilot_eval.bounded_yaml import YamlRefused, load_yaml_file
from copilot_eval.models.byok import ByokModel, ByokProvider
from copilot_eval.models.scripted import InvalidScriptError, ScriptedModel
from copilot_eval.suggest import unknown_key

PYTHON_ONLY = {
    "tools": "Python tools are given in Python, not in an agent file: "
    "CopilotEval.from_file(path).with_options(tools=[my_function]); to choose the "
    "runtime's built-in tools use allowed_tools / excluded_tools"
}


class AgentFileError(ValueError):
    """An agent file that cannot be used; the message names the file and every bad field."""


class _Problem(Exception):
    """One problem of one field, collected with the others (a bad script raises its own error)."""


def _model_from_block(value: Any, base: Path) -> dict[str, Any]:
    """Translate the `model:` entry into CopilotEval fields (raises _Problem naming the key)."""
    if value is None or isinstance(value, str):
        return {"model": value}
    if not isinstance(value, dict):
        raise _Problem("model: must be a model name or a mapping")
    unknown = [key for key in value if key not in ("scripted", "name", "provider")]
    if unknown:
        raise _Problem(f"model.{unknown[0]}: {unknown_key(str(unknown[0]), ('scripted', 'name', 'provider'))}")
    if isinstance(value.get("scripted"), (dict, list)):
        # The script written inline in the agent file (its rules, or a list of them) rather than a file
        # beside it: read the same way, so that a bad rule is named as in a script file.
        try:
            return {"model": ScriptedModel.from_dict(value["scripted"], source="model.scripted")}
        except InvalidScriptError as error:  # a problem of this file, listed with its others
            raise _Problem(str(error)) from None
    if "scripted" in value:
        if not isinstance(value["scripted"], str):
            raise _Problem("model.scripted: give a script file's path, or the script's rules inline")
        script_path = base / str(value["scripted"])
        if not script_path.is_file():
            raise _Problem(f"model.scripted: file not found: {script_path}")
        return {"model": ScriptedModel.from_file(script_path)}
    fields: dict[str, Any] = {"model": value.get("name")}
    if "provider" in value:
        fields["provider"] = value["provider"]
    return fields


def _sampling_model(value: dict[str, Any], base: Path, problems: list[str]) -> Any:
    """The `sampling:` model block (the same forms as `model:`) as a model source."""
    try:
        fields = _model_from_block(value, base)
    except _Problem as problem:
        problems.append(f"sampling.{str(problem).removeprefix('model.').removeprefix('model: ')}")
        return "decline"
    if "provider" in fields:
        try:
            return ByokModel(str(fields["model"]), ByokProvider(**fields["provider"]))
        except (ValidationError, TypeError) as error:
            problems.append(f"sampling.provider: {error}")
            return "decline"
    if not isinstance(fields["model"], str) and fields["model"] is not None:
        return fields["model"]
    problems.append("sampling: give decline, {scripted: file}, or {name: model, provider: {...}} (a BYOK endpoint)")
    return "decline"


def _resolve_placeholders(value: Any, base: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{agent_dir}", str(base)).replace("{python}", sys.executable)
    if isinstance(value, list):
        return [_resolve_placeholders(item, base) for item in value]
    if isinstance(value, dict):
        return {key: _resolve_placeholders(item, base) for key, item in value.items()}
    return value


def _markdown_problem(file: Path) -> str | None:
    """What a Markdown file given as an agent file is and how to use it, or ``None`` for another file."""
    name = file.name.lower()
    if name.endswith(".agent.md"):
        return (
            f"{file}: this is a custom agent file (Markdown with front matter), not an agent file; an agent "
            f"file (YAML: name, model, instructions, ...) attaches it with `custom_agents: [{file.name}]`, and "
            "its model delegates to it through the task tool (`copilot-eval tools AGENT.yaml` lists it); "
            "`copilot-eval init` writes a starter agent file"
        )
    if name.endswith((".instructions.md", ".prompt.md")) or file.suffix.lower() == ".md":
        return (
            f"{file}: a Markdown file is not an agent file; an agent file is YAML (name, model, instructions, "
            "...): put the text under `instructions:`, or start from `copilot-eval init`"
        )
    return None


def _read_mapping(file: Path) -> dict[str, Any]:
    if (problem := _markdown_problem(file)) is not None and file.is_file():
        raise AgentFileError(problem)
    try:
        data = load_yaml_file(file)
    except FileNotFoundError:
        raise AgentFileError(f"{file}: agent file not found") from None
    except UnicodeDecodeError as error:
        raise AgentFileError(f"{file}: byte {error.start + 1} is not UTF-8; save the file as UTF-8") from None
    except OSError as error:
        raise AgentFileError(f"{file}: cannot read: {error.strerror or error}") from None
    except YamlRefused as error:
        raise AgentFileError(str(error)) from None
    except yaml.YAMLError as error:
        raise AgentFileError(f"{file}: not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise AgentFileError(f"{file}: an agent file is a mapping of fields (name, model, instructions, ...)")
    return data


def _agent_path(entry: str, base: Path) -> Path:
    """A custom agent's file: a path, or a bare name found as ``<name>.agent.md`` next to the
    agent file or in ``.github/agents/`` (where GitHub keeps them)."""
    path = base / entry
    if path.exists() or entry.endswith(".md"):
        return path
    for folder in (base, base / ".github" / "agents"):
        candidate = folder / f"{entry}.agent.md"
        if candidate.is_file():
            return candidate
    return path


def _custom_agents(entries: Any, base: Path, problems: list[str]) -> tuple[CustomAgent, ...]:
    if entries is not None and not isinstance(entries, list):
        problems.append(f"custom_agents: expected a list of agent files or fields, got {entries!r}")
        return ()
    agents = []
    for index, entry in enumerate(entries or []):
        try:
            agents.append(
                CustomAgent.from_file(_agent_path(entry, base)) if isinstance(entry, str) else CustomAgent(**entry)
            )
        except FileNotFoundError as error:
            problems.append(f"custom_agents[{index}]: file not found: {error.filename}")
        except (OSError, ValueError, TypeError) as error:
            problems.append(f"custom_agents[{index}]: {error}")
    return tuple(agents)


def read_agent_file(path: str | Path, known: Collection[str]) -> tuple[dict[str, Any], list[str]]:
    """The CopilotEval fields of an agent file, and its problems (each ``field: what is wrong``).

    ``known`` is the set of CopilotEval field names. Fields with a problem are left out, so the
    caller can still find the problems of the remaining fields and report them all at once.
    """
    file = Path(path)
    data = _read_mapping(file)
    base = file.resolve().parent
    problems: list[str] = []
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key in PYTHON_ONLY:
            problems.append(f"{key}: {PYTHON_ONLY[key]}")
        elif key not in known:
            problems.append(f"{key}: {unknown_key(str(key), [k for k in known if k not in PYTHON_ONLY])}")
        else:
            fields[key] = value
    if "model" in fields:
        try:
            fields.update(_model_from_block(fields.pop("model"), base))
        except _Problem as problem:
            problems.append(str(problem))
    if isinstance(fields.get("sampling"), dict):
        fields["sampling"] = _sampling_model(fields["sampling"], base, problems)
    if "custom_agents" in fields:
        fields["custom_agents"] = _custom_agents(fields["custom_agents"], base, problems)
    if "skill_directories" in fields:
        fields["skill_directories"] = _skill_directories(fields.pop("skill_directories"), base, problems)
    for folder_key in ("working_directory", "user_instructions_dir"):  # folders relative to the agent file
        folder = fields.get(folder_key)
        if folder is None or folder == "":
            continue
        if isinstance(folder, str):
            fields[folder_key] = base / folder
        else:
            problems.append(f"{folder_key}: give a folder path (text), not {type(folder).__name__} {folder!r}")
            del fields[folder_key]
    if "mcp_servers" in fields:
        servers = _resolve_placeholders(fields.pop("mcp_servers") or {}, base)
        server_problems = mcp_server_problems(servers)
        problems.extend(server_problems)
        if not server_problems:
            fields["mcp_servers"] = servers
    return fields, problems


def _skill_directories(value: Any, base: Path, problems: list[str]) -> tuple[Path, ...]:
    """Each entry a folder path, relative to the agent file; anything else is a problem naming its entry."""
    entries = value if isinstance(value, list) else [] if value is None else None
    if entries is None:
        problems.append("skill_directories: expected a list of folder paths")
        return ()
    folders = []
    for index, entry in enumerate(entries):
        if isinstance(entry, str) and entry.strip():
            folders.append(base / entry)
        else:
            problems.append(f"skill_directories.{index}: expected a folder path, got {entry!r}")
    return tuple(folders)


def validation_problems(error: ValidationError) -> list[str]:
    """Pydantic's errors as ``field: message`` lines (without its "Value error," prefix)."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "agent"
        message = str(item["msg"]).removeprefix("Value error, ")
        # A validator that already names the full path (mcp_servers.git.args: ...) says it once.
        problems.append(message if message.startswith((f"{where}.", f"{where}:")) else f"{where}: {message}")
    return problems


def agent_file_error(file: str | Path, problems: list[str]) -> AgentFileError:
    """One error listing every problem of the file, one line each, each naming the file."""
    return AgentFileError("\n".join(f"{file}: {problem}" for problem in problems))
