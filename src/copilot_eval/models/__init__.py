"""models layer: where model answers come from (GitHub-hosted, BYOK, ScriptedModel, FunctionModel, Replay)."""

from __future__ import annotations

import importlib
from typing import Any

from copilot_eval.models.renames import deprecated_alias

from .base import AgentConfigError, ModelSource
from .function.model import FunctionModel
from .function.returns import CallTool
from .scripted import NO_RULE_TEXT, NO_TURN_TEXT, InvalidScriptError, ScriptedModel

__all__ = [
    "NO_RULE_TEXT",
    "NO_TURN_TEXT",
    "AgentConfigError",
    "ByokModel",
    "CallTool",
    "FunctionModel",
    "GitHubModel",
    "InvalidScriptError",
    "LiveModelsForbidden",
    "ModelSource",
    "Recorder",
    "Replay",
    "ScriptedCall",
    "ScriptedEndpoint",
    "ScriptedModel",
    "ScriptedServer",
]

_LAZY = {
    "ScriptedEndpoint": ".scripted",
    "ScriptedCall": ".scripted",
    "ScriptedServer": ".wire.server",
    "ByokModel": ".byok",
    "GitHubModel": ".github",
    "LiveModelsForbidden": ".guard",
    "Recorder": ".replay",
    "Replay": ".replay",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)

    return deprecated_alias(__name__, name, lambda new: getattr(importlib.import_module(".scripted", __name__), new))
