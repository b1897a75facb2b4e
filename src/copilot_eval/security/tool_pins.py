"""Pinned tool definitions: the hashes of every audited tool, written once, compared on every later audit.

A pin file is JSON: ``{"schemaVersion": 1, "agent": ..., "tools": {name: {"server": ..., "sha256": ...}}}``,
names as the model sees them, hashes from ``runtime.requests.tool_definitions.definition_hash``. A
tool whose definition changed, a tool that appeared and one that disappeared are each a change:
a server that rewrites its tools between two runs is what the pin is there to catch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from copilot_eval.atomic_write import write_text_atomically

__all__ = ["PIN_SCHEMA_VERSION", "PinChange", "PinFileError", "pin_changes", "read_pins", "write_pins"]

PIN_SCHEMA_VERSION = 1

Pins = dict[str, dict[str, Any]]
"""tool name -> {"server": name or None, "sha256": hex digest}."""


class PinFileError(ValueError):
    """A pin file that cannot be read; the message names the file and how to fix it."""


@dataclass(frozen=True)
class PinChange:
    """One difference between the pinned tools and the ones offered now."""

    kind: Literal["changed", "added", "removed"]
    tool: str
    pinned: str | None
    now: str | None

    def describe(self) -> str:
        """The change in words, hashes shortened."""
        if self.kind == "changed":
            return f"{self.tool}: definition changed ({str(self.pinned)[:12]} -> {str(self.now)[:12]})"
        if self.kind == "added":
            return f"{self.tool}: new tool, not in the pin file"
        return f"{self.tool}: pinned, no longer offered"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``copilot-eval audit --json``."""
        return {"kind": self.kind, "tool": self.tool, "pinned": self.pinned, "now": self.now}


def write_pins(path: Path, pins: Pins, *, agent: str | None) -> None:
    """Write the pin file (atomically)."""
    document = {"schemaVersion": PIN_SCHEMA_VERSION, "agent": agent, "tools": dict(sorted(pins.items()))}
    write_text_atomically(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def read_pins(path: Path) -> Pins:
    """The pins of a file written by :func:`write_pins`; PinFileError names what is wrong."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise PinFileError(f"{path}: cannot be read as a pin file ({error}); delete it to pin again") from None
    tools = document.get("tools") if isinstance(document, dict) else None
    version = document.get("schemaVersion") if isinstance(document, dict) else None
    if version != PIN_SCHEMA_VERSION or not isinstance(tools, dict):
        raise PinFileError(
            f"{path}: not a pin file of this version (schemaVersion {version!r}); delete it to pin again"
        )
    for name, entry in tools.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str):
            raise PinFileError(f"{path}: tools.{name}: expected an object with sha256")
    return tools


def pin_changes(pinned: Pins, now: Pins) -> list[PinChange]:
    """Changed, new and vanished tools, by name."""
    changes = []
    for name in sorted(set(pinned) | set(now)):
        before, after = pinned.get(name, {}).get("sha256"), now.get(name, {}).get("sha256")
        if before == after:
            continue
        kind: Literal["changed", "added", "removed"] = (
            "added" if before is None else "removed" if after is None else "changed"
        )
        changes.append(PinChange(kind, name, before, after))
    return changes
