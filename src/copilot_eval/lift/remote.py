"""A lift's plays on a Ray cluster: each arm's agent shipped as files, both arms' plays on every node.

The Ray workers load an agent from its file and the files it names (``runs.ray_executor``). An arm
given as ``--arm NAME=AGENT.yaml`` is shipped from that file. An arm ``--vary`` made exists only in
memory (its skill folders or working directory are copies the lift made), so it is first written
into the lift's folder as an agent file of its own (``<out>/<arm>/agent/``): the agent file it was
made from, with its ``skill_directories`` and ``working_directory`` pointing at copies of the arm's
beside it. That folder also records what the arm played. Each worker holds every arm, its request
audit on with the arm's markers, so delivery is decided from the evidence as for a local play.
``ArmWorkers`` shares the workers among the plays of both arms, ``concurrency`` plays per worker,
and hands a play whose worker was lost to another one.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import yaml

from copilot_eval.agent import load_agent_file
from copilot_eval.agent.agent_files import agent_files
from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.bounded_yaml import load_yaml_file
from copilot_eval.lift.arms import Arm, ArmError
from copilot_eval.runs.case_runner import Unit
from copilot_eval.runs.executor import AllWorkersLost, ExecutorError, WorkerLost
from copilot_eval.runs.ray_executor import RayArmWorker, RayExecutor, open_arm_workers
from copilot_eval.runs.target import PlayedEvidence
from copilot_eval.safe_paths import path_component

__all__ = ["ArmWorkers", "arm_agent_file", "remote_arms"]

log = logging.getLogger("copilot_eval.runs")

#: The fields ``vary_arms`` changes; any other difference between an arm and its file cannot be written back.
_VARIED = ("skill_directories", "working_directory")


def arm_agent_file(arm: Arm, source: Path, folder: Path) -> Path:
    """The agent file that plays as ``arm`` does: ``source`` itself when the arm is that file's agent, else
    ``source`` and its files copied into ``folder`` with the arm's skill folders and working directory beside."""
    base = load_agent_file(source)
    if all(getattr(base, field) == getattr(arm.agent, field) for field in _VARIED):
        return source
    files = agent_files(source)
    for name in files.relative:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(files.root / name, target)
    agent_file = folder / files.agent_relative
    data = load_yaml_file(source)
    if not isinstance(data, dict):
        raise ArmError(f"{source}: an agent file is a mapping of fields")
    if tuple(base.skill_directories) != tuple(arm.agent.skill_directories):
        data["skill_directories"] = [
            _copy_folder(Path(d), agent_file.parent / f"arm-skills-{i}")
            for i, d in enumerate(arm.agent.skill_directories)
        ]
    if base.working_directory != arm.agent.working_directory:
        wd = arm.agent.working_directory
        data["working_directory"] = None if wd is None else _copy_folder(Path(wd), agent_file.parent / "arm-workdir")
    write_text_atomically(agent_file, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return agent_file


def _copy_folder(source: Path, target: Path) -> str:
    """Copy ``source`` to ``target`` (replacing an earlier copy, as on ``--resume``); its name beside the agent file."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    return target.name


class ArmWorkers:
    """The Ray workers shared by both arms' plays: ``concurrency`` plays on each, a lost worker's play moved on."""

    def __init__(self, workers: list[RayArmWorker], concurrency: int) -> None:
        self.workers, self.lost = workers, set[str]()
        self.free: asyncio.Queue[RayArmWorker] = asyncio.Queue()
        for _ in range(concurrency):
            for worker in workers:
                self.free.put_nowait(worker)

    @property
    def capacity(self) -> int:
        """How many plays can be in flight at once over every worker."""
        return self.free.qsize()

    async def play(self, arm: str, unit: Unit) -> PlayedEvidence:
        """Play ``unit`` with ``arm`` on a free worker; AllWorkersLost once no worker is left."""
        while True:
            if len(self.lost) == len(self.workers):
                raise AllWorkersLost(f"every Ray worker was lost; continue with --resume ({unit.key} not played)")
            worker = await self.free.get()
            if worker.info.name in self.lost:
                continue
            try:
                return await worker.play_arm(arm, unit)
            except WorkerLost as lost:
                log.warning("%s; %s of arm %s goes to another worker", lost, unit.key, arm)
                if lost.dead:
                    self.lost.add(worker.info.name)
            finally:
                if worker.info.name not in self.lost:
                    self.free.put_nowait(worker)


@asynccontextmanager
async def remote_arms(
    executor: RayExecutor, arms: list[Arm], sources: dict[str, Path], out: Path, *, concurrency: int
) -> AsyncIterator[ArmWorkers]:
    """The cluster's workers holding every arm (each written as an agent file first when it must be)."""
    missing = [arm.name for arm in arms if arm.name not in sources]
    if missing:
        raise ExecutorError(
            f"the Ray workers load each arm's agent from its file; arm(s) {', '.join(missing)} came from no agent "
            "file: give them as --arm NAME=AGENT.yaml or --agent AGENT.yaml --vary SPEC"
        )
    shipped = {}
    for arm in arms:
        agent_file = arm_agent_file(arm, sources[arm.name], out / path_component(arm.name, fallback="arm") / "agent")
        player = arm.player()
        options: dict[str, Any] = {"audit_requests": True, "audit_markers": player.audit_markers}
        shipped[arm.name] = (agent_file, options)
    async with open_arm_workers(executor, shipped, concurrency=concurrency) as workers:
        yield ArmWorkers(workers, concurrency)
