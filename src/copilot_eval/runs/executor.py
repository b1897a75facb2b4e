"""The executor seam: something that plays units somewhere and hands back their evidence.

An executor moves work and nothing else. ``open`` yields its workers; a worker's ``play(unit)``
returns the evidence of one session (whatever machine played it), and raises ``WorkerLost`` when
the worker or its node went away, which is an infrastructure fault, never a verdict. Grading,
retries, concurrency, checkpoints and the run folder stay with the run (``runs.dispatch`` and
``runs.eval_runner``). The local executor is one worker on this process's runtime pool; the Ray
executor (``runs.ray_executor``) is one worker per node, each owning a pool of its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from copilot_eval.evalsets import WorkerInfo
from copilot_eval.runs.case_runner import Unit, play_in_workspace, play_unit
from copilot_eval.runs.target import PlayedEvidence


class WorkerLost(Exception):
    """The worker playing a unit is gone (it died, or its node left); the unit was not finished.

    ``dead`` says whether the worker can take no more units (its node left) or only this play failed.
    """

    def __init__(self, detail: str, *, dead: bool = True) -> None:
        super().__init__(detail)
        self.dead = dead


class ExecutorError(RuntimeError):
    """The executor cannot run this agent: said before anything is played (the message says why)."""


class AllWorkersLost(ExecutorError):
    """Every worker went away with units still to play; what finished is kept for ``--resume``."""


@runtime_checkable
class Worker(Protocol):
    """One place units are played; ``info.name`` tags its concurrency history and retries."""

    info: WorkerInfo

    async def play(self, unit: Unit) -> PlayedEvidence:
        """Play ``unit`` in one fresh session and return its evidence; WorkerLost on an infrastructure fault."""
        ...


@runtime_checkable
class Executor(Protocol):
    """Yields the workers that play a run's units, and releases them afterwards."""

    name: str

    def open(
        self, agent: Any, *, agent_file: Path | None, concurrency: int
    ) -> Any:  # an async context manager yielding list[Worker]
        """Start the workers for ``agent`` (ExecutorError when it cannot be run there), stop them at the end."""
        ...


class LocalWorker:
    """Plays units on this process's runtime pool (each in a fresh copy of its workspace, when it has one)."""

    def __init__(self, agent: Any, pool: Any, workspaces: Any = None) -> None:
        self.agent, self.pool, self.workspaces = agent, pool, workspaces
        self.info = WorkerInfo(name="local")

    async def play(self, unit: Unit) -> PlayedEvidence:
        """Play ``unit`` here (never raises WorkerLost: this process is the run)."""
        if self.workspaces is None:
            return await play_unit(unit, self.agent, pool=self.pool)
        return await play_in_workspace(unit, self.agent, self.workspaces, pool=self.pool)


class LocalExecutor:
    """The default executor: one worker, this process, ``concurrency`` sessions at a time."""

    name = "local"

    def __init__(self, *, pool: Any = None, workspaces: Any = None) -> None:
        self.pool, self.workspaces = pool, workspaces

    @asynccontextmanager
    async def open(self, agent: Any, *, agent_file: Path | None, concurrency: int) -> AsyncIterator[list[Worker]]:
        """One local worker on the given pool (the shared pool when none was given)."""
        pool = self.pool
        if pool is None:
            # imported on use: the runtime loads the Copilot SDK (about 0.6 s); a Copilot Studio target never needs it
            from copilot_eval.runtime.process.pool import shared_pool

            pool = shared_pool()
        yield [LocalWorker(agent, pool, self.workspaces)]


__all__ = ["AllWorkersLost", "Executor", "ExecutorError", "LocalExecutor", "LocalWorker", "Worker", "WorkerLost"]
