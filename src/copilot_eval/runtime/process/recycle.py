"""When a pooled runtime is replaced by a fresh one: after a number of sessions or above a memory mark.

A runtime process keeps some memory per session it has served even when every session is
deleted, so a long pytest session or a large evaluation would make it heavier and slower over
thousands of runs. Recycling retires a runtime from new leases, lets its runs in flight finish,
then stops it; the next lease gets a fresh process (started ahead of time, so no run waits).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

RECYCLE_SESSIONS_ENV = "COPILOT_EVAL_RECYCLE_SESSIONS"
RECYCLE_RSS_ENV = "COPILOT_EVAL_RECYCLE_RSS_MB"
DEFAULT_MAX_SESSIONS = 250
DEFAULT_MAX_RSS_MB = 1024


def whole_number_from_env(name: str, *, zero_means: str | None = None) -> int | None:
    """The whole number set in env ``name``, None when unset or blank; at least 1, or 0 when ``zero_means`` says what 0 does."""
    configured = os.environ.get(name)
    if configured is None or not configured.strip():
        return None
    zero_note = f" (0 = {zero_means})" if zero_means else ""
    try:
        value = int(configured)
    except ValueError:
        raise ValueError(f"env {name} must be a whole number{zero_note}, got {configured!r}") from None
    if value < (0 if zero_means else 1):
        least = f"0 ({zero_means}) or more" if zero_means else "at least 1"
        raise ValueError(f"env {name} must be {least}, got {value}")
    return value


def _env_number(name: str, default: int) -> int | None:
    """A limit from the environment, else ``default``; 0 switches the limit off."""
    value = whole_number_from_env(name, zero_means="never")
    return default if value is None else value or None


def process_rss_mb(pid: int | None) -> float | None:
    """Resident memory of a process in MB from /proc (Linux); ``None`` where it cannot be read."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


@dataclass(frozen=True)
class RecyclePolicy:
    """Limits after which a runtime takes no new sessions; ``None`` means no limit."""

    max_sessions: int | None = DEFAULT_MAX_SESSIONS
    max_rss_mb: int | None = DEFAULT_MAX_RSS_MB

    @classmethod
    def from_env(cls) -> RecyclePolicy:
        """Env ``COPILOT_EVAL_RECYCLE_SESSIONS`` (default 250) and ``COPILOT_EVAL_RECYCLE_RSS_MB``
        (default 1024); 0 switches either off."""
        return cls(
            max_sessions=_env_number(RECYCLE_SESSIONS_ENV, DEFAULT_MAX_SESSIONS),
            max_rss_mb=_env_number(RECYCLE_RSS_ENV, DEFAULT_MAX_RSS_MB),
        )

    def due(self, sessions_started: int, process: Any) -> str | None:
        """Why a runtime should take no more sessions, or ``None`` while it may."""
        if self.max_sessions is not None and sessions_started >= self.max_sessions:
            return f"served {sessions_started} sessions (limit {self.max_sessions})"
        if self.max_rss_mb is not None and process is not None:
            rss = process_rss_mb(getattr(process, "pid", None))
            if rss is not None and rss > self.max_rss_mb:
                return f"uses {rss:.0f} MB (mark {self.max_rss_mb} MB)"
        return None
