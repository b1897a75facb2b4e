"""A/B runs: the same prompt through a baseline and a candidate agent, each run isolated.

Each run gets its own working directory (a fresh copy when the agent names one), so neither
agent sees the other's files. The role is report metadata on the result (``comparison_role``),
never part of the runtime configuration.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.runtime.process.pool import RuntimePool
from copilot_eval.runtime.session.runner import run_copilot
from copilot_eval.workdirs import new_working_directory

__all__ = ["ABResult", "ab_run"]

Role = Literal["baseline", "candidate"]


@dataclass(frozen=True)
class ABResult:
    """Every repetition of both agents; each result carries its ``comparison_role``."""

    prompt: str | list[str]
    baseline: list[CopilotResult] = field(default_factory=list)
    candidate: list[CopilotResult] = field(default_factory=list)

    @property
    def results(self) -> list[CopilotResult]:
        """All results, baseline first, in repetition order."""
        return [*self.baseline, *self.candidate]

    def pairs(self) -> list[tuple[CopilotResult, CopilotResult]]:
        """(baseline, candidate) per repetition."""
        return list(zip(self.baseline, self.candidate, strict=True))

    def execution_rate(self, role: Role) -> float | None:
        """Share of runs of one role that executed to the end (not task correctness); None when none ran."""
        runs = self.baseline if role == "baseline" else self.candidate
        return sum(result.success for result in runs) / len(runs) if runs else None


def _isolated(agent: CopilotEval, role: Role, repetition: int) -> CopilotEval:
    """The agent with a working directory no other run uses."""
    if agent.working_directory is None:
        return agent  # the runner makes a fresh temporary directory for every run
    copy = new_working_directory(f"copilot-eval-ab-{role}-{repetition}-") / "work"
    shutil.copytree(agent.working_directory, copy, symlinks=True)
    return agent.with_options(working_directory=copy)


async def _one(
    prompt: str | Sequence[str],
    agent: CopilotEval,
    role: Role,
    repetition: int,
    pool: RuntimePool | None,
    options: dict,
) -> CopilotResult:
    result = await run_copilot(_isolated(agent, role, repetition), prompt, pool=pool, **options)
    return result.model_copy(update={"comparison_role": role})


async def ab_run(
    prompt: str | Sequence[str],
    baseline: CopilotEval,
    candidate: CopilotEval,
    *,
    repeat: int = 1,
    pool: RuntimePool | None = None,
    **options: object,
) -> ABResult:
    """Run ``prompt`` ``repeat`` times through both agents, concurrently, each run in its own directory.

    ``options`` (``default_model``, ``default_provider``) go to ``run_copilot`` unchanged.
    """
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat: must be a whole number of at least 1, got {repeat!r}")
    roles: tuple[tuple[Role, CopilotEval], ...] = (("baseline", baseline), ("candidate", candidate))
    jobs = [_one(prompt, agent, role, index, pool, dict(options)) for index in range(repeat) for role, agent in roles]
    results = await asyncio.gather(*jobs)
    return ABResult(
        prompt=prompt if isinstance(prompt, str) else list(prompt),
        baseline=[r for r in results if r.comparison_role == "baseline"],
        candidate=[r for r in results if r.comparison_role == "candidate"],
    )
