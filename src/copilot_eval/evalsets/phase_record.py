"""Time by phase in a run record: each case's session, and the medians over a run's sessions.

The phases are decided in capture (``copilot_eval.capture.phase_times``) from the runtime's own
trace; the run record keeps them in milliseconds, ``None`` where the trace did not say.
"""

from __future__ import annotations

from collections.abc import Iterable
from statistics import median

from pydantic import Field

from copilot_eval.evalsets.confidence import CamelModel

PHASE_NAMES: tuple[str, ...] = ("session_start", "context", "model", "tools", "host_callbacks", "closing", "other")


class PhaseRecord(CamelModel):
    """Milliseconds per phase of one session (or the medians over a run's sessions)."""

    total_ms: float | None = Field(default=None, ge=0, description="The whole session, as the run timed it.")
    session_start_ms: float | None = Field(default=None, ge=0)
    context_ms: float | None = Field(default=None, ge=0)
    model_ms: float | None = Field(default=None, ge=0)
    tools_ms: float | None = Field(default=None, ge=0)
    host_callbacks_ms: float | None = Field(default=None, ge=0)
    closing_ms: float | None = Field(default=None, ge=0)
    other_ms: float | None = Field(default=None, ge=0, description="What none of the phases explains.")
    sessions: int | None = Field(default=None, ge=1, description="For medians: how many sessions they are over.")

    def by_phase(self) -> dict[str, float | None]:
        """The phases in order, ``{"session_start": ms, ...}``."""
        return {phase: getattr(self, f"{phase}_ms") for phase in PHASE_NAMES}


def median_phases(records: Iterable[PhaseRecord]) -> PhaseRecord | None:
    """The median of each phase over the sessions that know it; ``None`` without any session."""
    records = list(records)
    if not records:
        return None
    values: dict[str, float | None] = {}
    for name in ("total", *PHASE_NAMES):
        known = [value for r in records if (value := getattr(r, f"{name}_ms")) is not None]
        values[f"{name}_ms"] = round(median(known), 3) if known else None
    return PhaseRecord(**values, sessions=len(records))


__all__ = ["PHASE_NAMES", "PhaseRecord", "median_phases"]
