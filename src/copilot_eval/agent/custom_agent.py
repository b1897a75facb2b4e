"""Custom agents: `.agent.md` files (YAML front matter + a Markdown body that is the prompt).

Front matter is read the way GitHub Copilot reads it: ``name``, ``description``, ``tools`` (a
list, or one comma-separated string; ``server/*`` patterns pass through), ``model`` (a name, or a
list in order of preference), ``mcp-servers`` (given to the runtime as the agent's own MCP
servers), ``argument-hint``, ``user-invocable``, ``disable-model-invocation``, ``handoffs``,
``target``, ``agents`` and ``infer``. Keys we do not know are kept in ``ignored`` and reported in
``warnings``, never refused: agent files written for other hosts carry their own keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from copilot_eval.agent.mcp_config import mcp_server_problems
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
    prompt: str = Field(min_length=1)
    description: str | None = None
    display_name: str | None = None
    tools: tuple[str, ...] | None = None
    model: str | tuple[str, ...] | None = None
    infer: bool | None = None
    mcp_servers: dict[str, dict[str, Any]] | None = None
    argument_hint: str | None = None
    user_invocable: bool | None = None
    disable_model_invocation: bool | None = None
    handoffs: tuple[dict[str, Any], ...] | None = None
    target: str | None = None
    agents: tuple[str, ...] | None = None
    source_path: str | None = None
    file_stem: str | None = None
    ignored: dict[str, Any] = Field(default_factory=dict)
    warnings: tuple[str, ...] = ()

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
        front, body = _split_front_matter(file, file.read_text(encoding="utf-8"))
        stem = file.name.removesuffix(".md").removesuffix(".agent")
        data: dict[str, Any] = {"name": stem, "file_stem": stem, "prompt": body.strip(), "source_path": str(file)}
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
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            problems = []
            for item in error.errors():
                field = ".".join(str(p) for p in item["loc"]) or "front matter"
                key = next((k for k, v in FRONT_MATTER_KEYS.items() if v == field), field)
                problems.append(f"{file}: {key}: {str(item['msg']).removeprefix('Value error, ')}")
            raise ValueError("\n".join(problems)) from None

    def session_config(self) -> dict[str, Any]:
        """The SDK ``CustomAgentConfig`` dict."""
        config: dict[str, Any] = {"name": self.name, "prompt": self.prompt}
        for key in ("description", "display_name", "infer"):
            value = getattr(self, key)
            if value is not None:
                config[key] = value
        if self.preferred_model is not None:
            config["model"] = self.preferred_model
        if self.tools is not None:
            config["tools"] = list(self.tools)
        if self.mcp_servers:
            config["mcp_servers"] = {
                name: {"tools": ["*"], **{k: v for k, v in server.items() if k != "optional"}}
                for name, server in self.mcp_servers.items()
            }
        return config


def _split_front_matter(file: Path, text: str) -> tuple[dict[str, Any], str]:
    """The front matter mapping and the body of an `.agent.md` text."""
    if not text.startswith("---"):
        return {}, text
    parts = text.split("\n---", 1)
    if len(parts) != 2:
        raise ValueError(f"{file}: front matter starts with '---' but has no closing '---' line")
    try:
        front = yaml.safe_load(parts[0][3:]) or {}
    except yaml.YAMLError as error:
        raise ValueError(f"{file}: front matter is not valid YAML: {error}") from None
    if not isinstance(front, dict):
        raise ValueError(f"{file}: front matter must be a mapping of fields")
    body = parts[1].split("\n", 1)[1] if "\n" in parts[1] else ""
    return front, body
