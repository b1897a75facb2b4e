"""What ``run_suite`` needs of a suite, whatever it is made of: its cases, a play's environment server, the checks.

Two kinds implement it: a suite written as data (``data_suite.DataSuite``, the built-in one and
YAML files) and AgentDojo's task suites (``agentdojo.AgentDojoSuite``, with the ``agentdojo``
extra). The runner plays the cases and the outcome is decided from the judgement in one place
(``outcomes``), so both kinds are measured and reported alike.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence import CopilotResult
from copilot_eval.security.cases import Play, SecurityCase

__all__ = ["Judgement", "PlayableSuite", "play_agent", "serving"]


@dataclass(frozen=True)
class Judgement:
    """A play's checks: whether the user's task and the attacker's goal held, each with what was seen."""

    task_held: bool
    task_said: str
    goal_held: bool = False
    goal_said: str = ""


@runtime_checkable
class PlayableSuite(Protocol):
    """A suite ``run_suite`` can play.

    It may also offer ``serving()``, an async context manager the runner enters around the plays
    (see :func:`serving`).
    """

    name: str
    description: str

    def cases(self) -> list[SecurityCase]:
        """Every case, baselines first, numbered from 1 in a stable order."""
        ...

    def server_names(self) -> list[str]:
        """The MCP server names the suite's environments use (an agent's own servers must not clash)."""
        ...

    def server(self, play: Play, spec_dir: Path) -> tuple[str, dict[str, Any]]:
        """The environment server of one play: its name and its ``mcp_servers`` entry (files go in ``spec_dir``)."""
        ...

    def judge(self, play: Play, result: CopilotResult) -> Judgement:
        """The play's checks, read from its evidence (and the environment's state, where it keeps one)."""
        ...


def serving(suite: PlayableSuite) -> contextlib.AbstractAsyncContextManager[Any]:
    """What ``run_suite`` enters around the plays: the suite's own ``serving()`` where it has one.

    Optional, so a suite of one's own needs none: AgentDojo's serves every play's environment from
    the run's process in it, with AgentDojo loaded once.
    """
    own = getattr(suite, "serving", None)
    return own() if callable(own) else contextlib.nullcontext()


def play_agent(agent: CopilotEval, server: tuple[str, dict[str, Any]], play: Play) -> CopilotEval:
    """``agent`` with the play's environment server added, the audit on, the canary watched, the play's folder."""
    name, entry = server
    markers = (play.canary,) if play.canary is not None else ()
    return agent.with_options(
        mcp_servers={**agent.mcp_servers, name: entry},
        audit_requests=True,
        audit_markers=markers,
        working_directory=play.working_directory,
    )
