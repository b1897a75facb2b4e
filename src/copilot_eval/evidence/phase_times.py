"""Where a session's time went, by phase, as read from the runtime's trace (capture decides it)."""

from __future__ import annotations

from pydantic import BaseModel, Field

PHASES: tuple[str, ...] = ("session_start", "context", "model", "tools", "host_callbacks", "closing", "other")
"""The phases, in the order a session passes through them; ``other`` is what none of them explains."""


class PhaseTimes(BaseModel):
    """Milliseconds of one session per phase; ``None`` where the trace does not say.

    ``session_start``: the runtime building the session and waiting for its MCP servers (without
    the host callbacks inside it). ``context``: preparing the first prompt's turn (system prompt,
    tools, context assembly, pre-request steps). ``model``: model calls of the main agent, as the
    runtime timed them. ``tools``: tool calls, a subagent's whole work included (without the
    permission round trips inside them). ``host_callbacks``: the runtime waiting for this process
    (session creation, permission decisions). ``closing``: from the end of the last prompt's
    ``invoke_agent`` to the end of the run. ``other``: the run's duration minus all of these (the
    pool's lease, a runtime started for this run, event delivery, later turns' preparation).
    ``runtime_phases`` is the runtime's own breakdown, every ``session.timing.*`` phase summed by
    name, for finer questions.
    """

    # Alike in shape to ObservedCall's optional fields (trajectory/calls.py): milliseconds, not a call's facts.
    total_ms: float | None = None
    session_start_ms: float | None = None
    context_ms: float | None = None
    model_ms: float | None = None
    tools_ms: float | None = None
    host_callbacks_ms: float | None = None
    closing_ms: float | None = None
    other_ms: float | None = None
    runtime_phases: dict[str, float] = Field(default_factory=dict)

    def by_phase(self) -> dict[str, float | None]:
        """The named phases in order, ``{"session_start": ms, ...}``."""
        return {phase: getattr(self, f"{phase}_ms") for phase in PHASES}


__all__ = ["PHASES", "PhaseTimes"]
