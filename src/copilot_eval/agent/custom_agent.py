"""Custom agents: `.agent.md` files (YAML front matter + a Markdown body that is the prompt).

Front matter is read the way GitHub Copilot reads it: ``name``, ``description``, ``tools`` (a
list, or one comma-separated string; ``server/*`` patterns pass through), ``model`` (a name, or a
list in order of preference), ``mcp-servers`` (given to the runtime as the agent's own MCP
servers), ``argument-hint``, ``user-invocable``, ``disable-model-invocation``, ``handoffs``,
``target``, ``agents`` and ``infer``. Keys we do not know are kept in ``ignored`` and reported in
``warnings``, never refused: agent files written for other hosts carry their own keys.

A file the runtime's own agent loader skips (runtime 1.0.102: one without front matter, or whose
front matter has no ``description``, which GitHub's custom agent reference requires) is read,
marked ``skipped`` with the reason and a warning, and never given to a session: in production it
would not exist. A wrong value of a known key (which the loader also skips the file for) is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, field_validator, model_validator

from copilot_eval.agent.mcp_config import mcp_file_problems, mcp_server_problems, sdk_mcp_servers
from copilot_eval.bounded_yaml import YamlRefused, load_yaml
from copilot_eval.suggest import closest

FRONT_MATTER_KEYS = {
    "name": "name",
    "description": "description",
    "tools": "tools",
    "model": "model",
    "infer": "infer",
    "display-name": "display_name",
    "mcp-servers": "mcp_servers",
    "argument-hint": "argument_hint",
    "user-invocable": "user_invocable",
    "user-invokable": "user_invocable",
    "disable-model-invocation": "disable_model_invocation",
    "handoffs": "handoffs",
    "target": "target",
    "agents": "agents",
}
"""Front-matter key -> CustomAgent field (``user-invokable`` is an older spelling still in use)."""


class CustomAgent(BaseModel):
    """A custom agent the runtime may dispatch to; attaching it does not prove it was used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    prompt: str
    description: str | None = None
    display_name: str | None = None
    tools: tuple[str, ...] | None = None
    model: str | tuple[str, ...] | None = None
    infer: StrictBool | None = None
    mcp_servers: dict[str, dict[str, Any]] | None = None
    argument_hint: str | None = None
    user_invocable: StrictBool | None = None
    disable_model_invocation: StrictBool | None = None
    handoffs: tuple[dict[str, Any], ...] | None = None
    target: str | None = None
    agents: tuple[str, ...] | None = None
    source_path: str | None = None
    file_stem: str | None = None
    ignored: dict[str, Any] = Field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    # Why the runtime's agent loader would not load this file; a skipped agent is never given to a session.
    skipped: str | None = None

    @model_validator(mode="after")
    def _prompt_given(self) -> CustomAgent:
        if not self.prompt.strip() and self.skipped is None:
            raise ValueError("prompt: must not be empty (the Markdown body of the file is the agent's prompt)")
        return self

    @field_validator("tools", "agents", mode="before")
    @classmethod
    def _name_list(cls, value: Any) -> Any:
        # GitHub accepts `tools: Read, Edit, Bash` as well as a YAML list.
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("model", mode="before")
    @classmethod
    def _model_names(cls, value: Any) -> Any:
        if isinstance(value, list):
            if not value or not all(isinstance(item, str) and item.strip() for item in value):
                raise ValueError(f"expected a model name or a non-empty list of model names, got {value!r}")
            return tuple(value)
        return value

    @field_validator("mcp_servers")
    @classmethod
    def _servers(cls, value: dict[str, dict[str, Any]] | None) -> dict[str, dict[str, Any]] | None:
        problems = mcp_server_problems(value, where="mcp-servers") if value is not None else []
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @property
    def names(self) -> tuple[str, ...]:
        """Every name this agent answers to: its front-matter name and its file stem."""
        return tuple(dict.fromkeys(n for n in (self.name, self.file_stem) if n))

    def matches(self, name: str) -> bool:
        """Whether ``name`` is this agent's name or its file's stem (``reviewer`` for reviewer.agent.md)."""
        return name in self.names

    @property
    def preferred_model(self) -> str | None:
        """The model the runtime is asked for: the first of a preference list."""
        return self.model[0] if isinstance(self.model, tuple) else self.model

    @classmethod
    def from_file(cls, path: str | Path) -> CustomAgent:
        """Load an `.agent.md` file; the name defaults to the file name without `.agent.md`.

        Every problem of the file is reported at once in one ``ValueError`` naming the file.
        """
        file = Path(path)
        text = file.read_text(encoding="utf-8")
        front, body = _split_front_matter(file, text)
        stem = file.name.removesuffix(".md").removesuffix(".agent")
        data: dict[str, Any] = {"name": stem, "file_stem": stem, "prompt": body.strip(), "source_path": str(file)}
        skip = _loader_skips(text, front)
        if skip is not None and not front:
            return cls(**data, skipped=skip, warnings=(_skip_warning(file, skip),))
        ignored: dict[str, Any] = {}
        warnings: list[str] = []
        for key, value in front.items():
            field = FRONT_MATTER_KEYS.get(str(key)) or (str(key) if str(key) in FRONT_MATTER_KEYS.values() else None)
            if field is None:
                ignored[str(key)] = value
                guess = closest(str(key), FRONT_MATTER_KEYS)
                hint = f" (did you mean {guess!r}?)" if guess else ""
                warnings.append(f"{file}: {key}: not used by copilot-eval, ignored{hint}")
            else:
                data[field] = value
        if data.get("disable_model_invocation") is True and "infer" not in data:
            data["infer"] = False  # the model may not pick this agent on its own
        data["ignored"], data["warnings"] = ignored, tuple(warnings)
        problems = [f"{file}: {problem}" for problem in mcp_file_problems(data.get("mcp_servers"))]
        try:
            agent = cls.model_validate(data)
        except ValidationError as error:
            for item in error.errors():
                field = ".".join(str(p) for p in item["loc"]) or "front matter"
                key = next((k for k, v in FRONT_MATTER_KEYS.items() if v == field), field)
                problems.append(f"{file}: {key}: {str(item['msg']).removeprefix('Value error, ')}")
        if problems and skip is not None:
            problems.append(
                f"{file}: description: required (GitHub's custom agent reference; the runtime's loader skips a file without it)"
            )
        if problems:
            raise ValueError("\n".join(problems)) from None
        if skip is not None:  # nothing else wrong: the runtime would skip it quietly, so it is skipped and said
            return agent.model_copy(update={"skipped": skip, "warnings": (*agent.warnings, _skip_warning(file, skip))})
        return agent

    def session_config(self) -> dict[str, Any]:
        """The SDK ``CustomAgentConfig`` dict."""
        config: dict[str, Any] = {"name": self.name, "prompt": self.prompt}
        for key in ("description", "display_name", "infer"):
            value = getattr(self, key)
            if value is not None:
                config[key] = value
        if self.disable_model_invocation is True or self.infer is False:
            # Runtime 1.0.102 reads this, not infer (see runtime.sdk_internals.send_disable_model_invocation).
            config["disable_model_invocation"] = True
        if self.preferred_model is not None:
            config["model"] = self.preferred_model
        if self.tools is not None:
            config["tools"] = list(self.tools)
        if self.mcp_servers:
            config["mcp_servers"] = sdk_mcp_servers(self.mcp_servers)
        return config


def _skip_warning(file: Path, reason: str) -> str:
    return f"{file}: not loaded: the Copilot runtime's agent loader skips this file ({reason})"


def _loader_skips(text: str, front: dict[str, Any]) -> str | None:
    """Why the runtime's agent loader skips a file before reading its fields, in its own words."""
    if not text.startswith("---"):
        return "it has no YAML front matter: 'missing or malformed YAML frontmatter'"
    if "description" not in front:
        return "its front matter has no description: 'description: Required'; add description: <what the agent does>"
    return None


def _split_front_matter(file: Path, text: str) -> tuple[dict[str, Any], str]:
    """The front matter mapping and the body of an `.agent.md` text."""
    if not text.startswith("---"):
        return {}, text
    parts = text.split("\n---", 1)
    if len(parts) != 2:
        raise ValueError(f"{file}: front matter starts with '---' but has no closing '---' line")
    # Reads YAML like agent_file._read_mapping, which reads a whole file and raises AgentFileError with
    # an agent file's hints; this one reads a front matter and raises the ValueError from_file promises.
    try:
        front = load_yaml(parts[0][3:], source=f"{file}: front matter") or {}
    except YamlRefused as error:
        raise ValueError(str(error)) from None
    except yaml.YAMLError as error:
        raise ValueError(f"{file}: front matter is not valid YAML: {error}") from None
    if not isinstance(front, dict):
        raise ValueError(f"{file}: front matter must be a mapping of fields")
    body = parts[1].split("\n", 1)[1] if "\n" in parts[1] else ""
    return front, body
