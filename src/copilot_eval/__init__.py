"""copilot-eval: test agents built on GitHub Copilot through the real Copilot runtime.

Public names are loaded lazily, so that `import copilot_eval` (and commands such as
`copilot-eval validate`) do not pay the SDK's import time of about a second.
"""

from __future__ import annotations

import importlib
from typing import Any

from copilot_eval.version import __version__

_EXPORTS: dict[str, str] = {
    "run_copilot": "copilot_eval.runtime.session.runner",
    "run_copilot_sync": "copilot_eval.runtime.session.runner",
    "RuntimePool": "copilot_eval.runtime.process.pool",
    "CopilotEval": "copilot_eval.agent.config",
    "CustomAgent": "copilot_eval.agent.custom_agent",
    "CopilotResult": "copilot_eval.evidence.result",
    "ToolCall": "copilot_eval.evidence.tool_call",
    "ToolException": "copilot_eval.evidence.tool_call",
    "Turn": "copilot_eval.evidence.turn",
    "UsageEntry": "copilot_eval.evidence.usage",
    "ModelPrice": "copilot_eval.evidence.usage",
    "SubagentInvocation": "copilot_eval.evidence.result",
    "ContentItem": "copilot_eval.evidence.content",
    "HostRequest": "copilot_eval.evidence.host_request",
    "UserAnswer": "copilot_eval.agent.user_answers",
    "UserRequest": "copilot_eval.agent.user_answers",
    "SamplingRequest": "copilot_eval.models.sampling",
    "Step": "copilot_eval.evidence.trajectory",
    "Regex": "copilot_eval.evidence.trajectory",
    "TrajectoryMatch": "copilot_eval.evidence.trajectory",
    "assert_trajectory": "copilot_eval.evidence.trajectory",
    "ScriptedModel": "copilot_eval.models.scripted",
    "ScriptError": "copilot_eval.models.scripted",  # deprecated: InvalidScriptError
    "InvalidScriptError": "copilot_eval.models.scripted",
    "FunctionModel": "copilot_eval.models.function.model",
    "CallTool": "copilot_eval.models.function.returns",
    "ModelSource": "copilot_eval.models.base",
    "Recorder": "copilot_eval.models.replay",
    "Replay": "copilot_eval.models.replay",
    "ByokProvider": "copilot_eval.models.byok",
    "result_from_events": "copilot_eval.capture",
    "ab_run": "copilot_eval.runs.ab",
    "ABResult": "copilot_eval.runs.ab",
    "register_secret": "copilot_eval.redaction",
    "redact": "copilot_eval.redaction",
}

_DEPRECATED = {"ScriptError"}  # still resolves (with a DeprecationWarning) for one release; see CHANGELOG.md

__all__ = [*sorted(set(_EXPORTS) - _DEPRECATED), "__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'copilot_eval' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
