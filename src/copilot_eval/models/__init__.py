"""models layer: where model answers come from (the built-in ScriptedModel; later BYOK and GitHub-hosted)."""

from __future__ import annotations

from typing import Any

from .scripted import NO_RULE_TEXT, NO_TURN_TEXT, ScriptedModel, ScriptError

__all__ = ["NO_RULE_TEXT", "NO_TURN_TEXT", "ScriptError", "ScriptedCall", "ScriptedEndpoint", "ScriptedModel",
           "ScriptedServer"]


def __getattr__(name: str) -> Any:
    if name in ("ScriptedEndpoint", "ScriptedCall", "ScriptedServer"):
        from . import scripted

        return getattr(scripted, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
