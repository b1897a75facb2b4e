"""The one small interface ``runs`` plays a unit through, whatever answers: runtime agent or target.

A ``Target`` has a ``name`` and ``play(prompts)``; what it returns offers the per-prompt answers,
an error and stop reason, a duration and ``save(path)`` - which both ``CopilotResult`` and the
Copilot Studio ``TargetResult`` do. A ``CopilotEval`` is played through the pooled runtime; any
object with an async ``play`` (``StudioAgent``, or a user's own target) is played by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class PlayedEvidence(Protocol):
    """What graders, limitation detection and the run files read from a played unit."""

    error: str | None
    stop_reason: Any
    duration_ms: float | None

    @property
    def responses_per_prompt(self) -> list[str | None]:
        """Per prompt played, the answer (``None`` when the turn failed)."""
        ...

    def save(self, path: str | Path) -> Path:
        """Write the evidence as JSON."""
        ...


@runtime_checkable
class Target(Protocol):
    """Something that answers prompts by itself, one conversation per ``play`` call."""

    name: str | None

    async def play(self, prompts: Sequence[str]) -> PlayedEvidence:
        """Play ``prompts`` as one conversation; platform failures are recorded, not raised."""
        ...


def is_target(agent: Any) -> bool:
    """Whether ``agent`` plays itself (a Target) rather than running in the Copilot runtime."""
    return isinstance(agent, Target)


__all__ = ["PlayedEvidence", "Target", "is_target"]
