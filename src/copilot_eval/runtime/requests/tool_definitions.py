"""The tools a model request offers, and the one hash of a tool's definition.

A tool's definition is what the model is given about it: its name, its description and its
parameters' schema, as the request carries them (MCP tools named ``server-tool``). Its hash, the
SHA-256 of that triple in canonical JSON, is what ``copilot-eval audit --pin`` stores and what the
history compares between runs; :func:`definition_hash` is the only place it is computed.

The link of the request chain here notes the definitions of the run's first request that offers
tools (where the run sees its requests: an in-process model source, or ``audit_requests=True``).
A body it cannot read is passed on untouched.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from copilot_eval.runtime.process.forwarding import NotingHandler

__all__ = ["ToolDefinition", "ToolDefinitionLog", "definition_hash", "tool_definitions_of"]


def definition_hash(name: str, description: str, parameters: Any) -> str:
    """SHA-256 of ``{"name", "description", "parameters"}`` as compact JSON with sorted keys (UTF-8)."""
    canonical = json.dumps(
        {"name": name, "description": description, "parameters": parameters},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ToolDefinition:
    """One function tool as a request offers it."""

    name: str
    description: str
    parameters: Any

    @property
    def sha256(self) -> str:
        """The definition's hash (:func:`definition_hash`)."""
        return definition_hash(self.name, self.description, self.parameters)


def tool_definitions_of(body: Any) -> list[ToolDefinition]:
    """The function tools of a chat completions or Responses body (or ``response.create`` frame), in order."""
    tools = body.get("tools") if isinstance(body, dict) else None
    found = []
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict) or tool.get("type", "function") != "function":
            continue
        nested = tool.get("function")
        spec: dict[str, Any] = nested if isinstance(nested, dict) else tool
        if isinstance(spec.get("name"), str):
            found.append(ToolDefinition(spec["name"], str(spec.get("description") or ""), spec.get("parameters")))
    return found


class ToolDefinitionLog(NotingHandler):
    """Passes model calls on to ``inner``, noting the tool definitions of the first request that offers tools."""

    def __init__(self, inner: Any = None) -> None:
        super().__init__(inner)
        self.hashes: dict[str, str] | None = None

    def note(self, data: str | bytes, *, frame: bool = False) -> None:
        """Keep the definitions' hashes of this body or frame, unless an earlier one had tools."""
        if self.hashes is not None:
            return
        try:
            body = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            return
        definitions = tool_definitions_of(body)
        if definitions:
            self.hashes = {definition.name: definition.sha256 for definition in definitions}
