"""The deterministic ScriptedModel: a script of rules answering the Copilot runtime's model calls."""

from __future__ import annotations

import importlib
from typing import Any

from copilot_eval.models.renames import deprecated_alias
from copilot_eval.models.wire.answer import ScriptedHttpError
from copilot_eval.models.wire.provider import PLACEHOLDER_API_KEY, UNUSED_BASE_URL

from .model import ScriptedModel
from .script import InvalidScriptError, Rule, ScriptedToolCall, ScriptedTurn, TurnUsage
from .turns import NO_RULE_TEXT, NO_TURN_TEXT

__all__ = [
    "NO_RULE_TEXT",
    "NO_TURN_TEXT",
    "PLACEHOLDER_API_KEY",
    "UNUSED_BASE_URL",
    "InvalidScriptError",
    "Rule",
    "ScriptedCall",
    "ScriptedEndpoint",
    "ScriptedHttpError",
    "ScriptedModel",
    "ScriptedServer",
    "ScriptedToolCall",
    "ScriptedTurn",
    "TurnUsage",
]

_LAZY = {
    "ScriptedEndpoint": "copilot_eval.models.scripted.endpoint",
    "ScriptedCall": "copilot_eval.models.scripted.endpoint",
    "ScriptedServer": "copilot_eval.models.wire.server",
}


def __getattr__(name: str) -> Any:
    # The endpoint and server import the Copilot SDK (about a second); loading a script should not.
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)

    return deprecated_alias(__name__, name, globals().__getitem__)
