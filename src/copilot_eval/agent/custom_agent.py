"""Custom agents: `.agent.md` files (YAML front matter + a Markdown body that is the prompt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError


class CustomAgent(BaseModel):
    """A custom agent the runtime may dispatch to; attaching it does not prove it was used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    prompt: str = Field(min_length=1)
    description: str | None = None
    display_name: str | None = None
    tools: tuple[str, ...] | None = None
    model: str | None = None
    infer: bool | None = None
    source_path: str | None = None

    @classmethod
    def from_file(cls, path: str | Path) -> CustomAgent:
        """Load an `.agent.md` file; the name defaults to the file name without `.agent.md`."""
        file = Path(path)
        text = file.read_text(encoding="utf-8")
        front: dict[str, Any] = {}
        body = text
        if text.startswith("---"):
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
        default_name = file.name.removesuffix(".md").removesuffix(".agent")
        data = {"name": default_name, **front, "prompt": body.strip(), "source_path": str(file)}
        if "display-name" in data:
            data["display_name"] = data.pop("display-name")
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "front matter"
            raise ValueError(f"{file}: {field}: {first['msg']}") from None

    def session_config(self) -> dict[str, Any]:
        """The SDK ``CustomAgentConfig`` dict."""
        config: dict[str, Any] = {"name": self.name, "prompt": self.prompt}
        for key in ("description", "display_name", "model", "infer"):
            value = getattr(self, key)
            if value is not None:
                config[key] = value
        if self.tools is not None:
            config["tools"] = list(self.tools)
        return config
