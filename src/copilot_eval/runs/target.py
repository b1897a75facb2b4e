"""The one small interface ``runs`` plays a unit through, whatever answers: runtime agent or target.

A ``Target`` has a ``name`` and ``play(prompts)`` returning ``PlayedEvidence`` (the evidence
protocol both ``CopilotResult`` and the Copilot Studio ``TargetResult`` implement). A Copilot
Studio agent (``StudioAgent``), or a user's own target, is a Target by itself; a ``CopilotEval``
becomes one through ``RuntimeTarget``, played in a session of the pooled runtime. This module is
the runtime agent's adapter and the one place the two kinds of agent are told apart
(``as_target``, ``runtime_agent``); their saved evidence is told apart in one place too
(``load_played``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from copilot_eval.agent.config import CopilotEval
from copilot_eval.bounded_json import load_json_file
from copilot_eval.evidence.protocol import PlayedEvidence
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.targets.evidence import TargetResult


@runtime_checkable
class Target(Protocol):
    """Something that answers prompts by itself, one conversation per ``play`` call."""

    name: str | None

    async def play(self, prompts: Sequence[str]) -> PlayedEvidence:
        """Play ``prompts`` as one conversation; platform failures are recorded, not raised."""
        ...


class RuntimeTarget:
    """A Copilot runtime agent as a Target: each ``play`` is one fresh session on ``pool`` (the shared one by default)."""

    def __init__(self, agent: CopilotEval, *, pool: Any = None) -> None:
        self.agent, self.pool = agent, pool
        self.name: str | None = agent.name

    async def play(self, prompts: Sequence[str]) -> PlayedEvidence:
        """Play ``prompts`` in one session (a single prompt as a plain run)."""
        # imported on use: the runtime loads the Copilot SDK (about 0.6 s); a Copilot Studio target never needs it
        from copilot_eval.runtime.session.runner import run_copilot

        return await run_copilot(self.agent, prompts[0] if len(prompts) == 1 else list(prompts), pool=self.pool)


def as_target(agent: Any, *, pool: Any = None) -> Target:
    """``agent`` as a Target: itself when it plays itself, else the runtime adapter of a CopilotEval on ``pool``."""
    return agent if isinstance(agent, Target) else RuntimeTarget(agent, pool=pool)


def runtime_agent(agent: Any) -> CopilotEval | None:
    """The Copilot runtime agent ``agent`` is (its model, cassettes, node checks), ``None`` for a target."""
    return agent if isinstance(agent, CopilotEval) else None


def load_played(path: str | Path) -> PlayedEvidence:
    """Saved evidence of one conversation, of whichever kind of target played it (ValueError when unreadable)."""
    data = load_json_file(path)
    if isinstance(data, dict) and data.get("kind") == "copilot-studio-target":
        return TargetResult.load(path)
    return CopilotResult.load(path)


def played_by_platform(sessions: Iterable[PlayedEvidence]) -> bool:
    """Whether a platform could answer in the agent's place in ``sessions`` (saved evidence of a run).

    ``False`` only when every session was played on the local runtime (a ``CopilotResult``); with no
    session to tell, a platform is not ruled out.
    """
    kinds = [isinstance(session, CopilotResult) for session in sessions]
    return not kinds or not all(kinds)


def saved_by_platform(paths: Iterable[Path]) -> bool:
    """``played_by_platform`` of a run folder's evidence files, read until one can be read (a platform when none can)."""
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        return isinstance(data, dict) and data.get("kind") == "copilot-studio-target"
    return True


__all__ = [
    "PlayedEvidence",
    "RuntimeTarget",
    "Target",
    "as_target",
    "load_played",
    "played_by_platform",
    "runtime_agent",
    "saved_by_platform",
]
