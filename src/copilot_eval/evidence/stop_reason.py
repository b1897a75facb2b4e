"""Why a run ended: the runner's finalisation vocabulary."""

from __future__ import annotations

from typing import Literal, get_args

StopReason = Literal[
    "completed",
    "tool_budget_exceeded",
    "usage_budget_exceeded",
    "timeout",
    "request_audit_error",
    "execution_error",
    "cleanup_error",
]
"""How the runner ended a session. ``None`` on a result means the runner did not finalise it
(for example a result rebuilt from a saved event log)."""

STOP_REASONS: tuple[str, ...] = get_args(StopReason)
