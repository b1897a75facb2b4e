"""The executor a run's settings name, made in one place: this process's pool, or Ray."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copilot_eval.runs.executor import Executor, LocalExecutor
from copilot_eval.runs.ray_executor import RayExecutor
from copilot_eval.runs.settings import HowToPlay


def executor_of(play: HowToPlay, *, pool: Any = None, say: Callable[[str], None] | None = None) -> Executor:
    """The executor ``play.executor`` names (ExecutorError when Ray cannot start, saying why)."""
    if play.executor == "local":
        return LocalExecutor(pool=pool)
    return RayExecutor(address=play.ray_address, workers=play.ray_workers, say=say or (lambda line: None))


__all__ = ["executor_of"]
