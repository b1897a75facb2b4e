"""The switch that keeps a test suite from ever calling a real model.

With ``COPILOT_EVAL_NO_LIVE_MODELS=1`` in the environment (the pytest option
``--copilot-no-live-models`` sets it for the test session), a run whose model is live
(GitHub-hosted, BYOK, or a Recorder in front of one) refuses to start; scripted, function and
replayed models run as usual.
"""

from __future__ import annotations

import os
from typing import Any

from copilot_eval.models.base import AgentConfigError, describe

__all__ = ["NO_LIVE_MODELS_ENV", "LiveModelsForbidden", "check_live_allowed", "live_models_allowed"]

NO_LIVE_MODELS_ENV = "COPILOT_EVAL_NO_LIVE_MODELS"
_TRUE = ("1", "true", "yes", "on")


def live_models_allowed() -> bool:
    """False while ``COPILOT_EVAL_NO_LIVE_MODELS`` is set to 1 (or true/yes/on)."""
    return os.environ.get(NO_LIVE_MODELS_ENV, "").strip().lower() not in _TRUE


class LiveModelsForbidden(AgentConfigError):
    """A live model was asked for while live models are forbidden."""


def check_live_allowed(source: Any, *, agent_name: str = "agent") -> None:
    """Raise LiveModelsForbidden when ``source`` is live and live models are forbidden."""
    if not source.live or live_models_allowed():
        return
    raise LiveModelsForbidden(
        f"agent {agent_name!r}: model {source.session_model!r} ({describe(source)}) "
        f"is a live model, and live models are forbidden here ({NO_LIVE_MODELS_ENV}=1 or --copilot-no-live-models); "
        "use a ScriptedModel, a FunctionModel or Replay(DIR), or unset the switch to call real models"
    )
