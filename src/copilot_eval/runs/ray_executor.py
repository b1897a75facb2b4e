"""The Ray executor: one worker per Ray node, each owning a runtime pool, ``--concurrency`` sessions each.

The agent reaches the workers as files: the agent file and every file it names
(``agent.agent_files``) are read into a bundle that goes through Ray's object store to each
worker, which writes it into a folder of its own and loads the agent from the same relative
paths. (Ray's runtime environment can upload a local ``working_dir`` only once per driver
process, at ``ray.init``; a run of several surfaces needs one bundle per agent.) Files named by
an absolute path are not shipped; the run says so before it starts (they must exist at that path
on every node). Before any unit is sent every worker reports its node, its copilot-eval
version and whether the agent loaded there; a problem on any node stops the run before it starts.

Ray's own errors are translated here, at the boundary: a dead actor or a node that left is
``WorkerLost`` (its unit goes to another worker), anything else Ray raises for a play is a lost
play on a live worker. The evidence travels back to the driver, which grades and writes it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from copilot_eval.agent.agent_files import agent_files
from copilot_eval.evalsets import WorkerInfo
from copilot_eval.runs.case_runner import Unit
from copilot_eval.runs.executor import ExecutorError, Worker, WorkerLost
from copilot_eval.runs.ray_worker import ArmsPlayWorker, PlayWorker, _version
from copilot_eval.runs.target import PlayedEvidence

# Ray is imported inside the functions that use it: it is the optional [ray] extra, and a local run must not need it.

log = logging.getLogger("copilot_eval.runs")

#: How long the workers may take to start (runtime environment unpacked, agent loaded) before the run gives up.
START_TIMEOUT_S = 180.0
#: Driver switches the workers get too (never secrets: a node's own environment holds those).
FORWARDED_ENV = (
    "COPILOT_EVAL_NO_LIVE_MODELS",
    "COPILOT_EVAL_RUNTIMES",
    "COPILOT_EVAL_RECYCLE_SESSIONS",
    "COPILOT_EVAL_RECYCLE_RSS_MB",
)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ExecutorError("Ray is not installed; install the extra: pip install 'copilot-eval[ray]'") from None
    return ray


def build_bundle(agent_file: Path) -> tuple[str, dict[str, tuple[bytes, int]], list[Path]]:
    """The agent's path in its bundle, the bundle (name -> content and mode), and the files left behind."""
    files = agent_files(agent_file)
    bundle = {}
    for name in files.relative:
        path = files.root / name
        try:
            bundle[name] = (path.read_bytes(), path.stat().st_mode & 0o777)
        except OSError as exc:
            raise ExecutorError(f"cannot read {path} to ship it to the Ray workers: {exc.strerror or exc}") from None
    return files.agent_relative, bundle, list(files.absolute)


class RayWorker:
    """The driver's handle on one remote worker: plays a unit there, Ray's failures translated."""

    def __init__(self, actor: Any, info: WorkerInfo, pid: int | None) -> None:
        self.actor, self.info = actor, info
        self.played_on = {
            "executor": "ray",
            "node_id": info.node_id,
            "node_address": info.node_address,
            "hostname": info.hostname,
            "worker_pid": pid,
        }

    async def play(self, unit: Unit) -> PlayedEvidence:
        """Play ``unit`` on the worker's node; WorkerLost when the worker or its node is gone."""
        played: PlayedEvidence = await self._remote(lambda: self.actor.play.remote(unit, self.played_on))
        return played

    async def play_trigger(self, prompt: str, options: dict[str, Any]) -> Any:
        """Play one trigger-set prompt on the worker's node (``PlayWorker.play_trigger``); WorkerLost as ``play``."""
        return await self._remote(lambda: self.actor.play_trigger.remote(prompt, options, self.played_on))

    async def _remote(self, call: Callable[[], Any]) -> Any:
        """Await one call on the worker's actor, its Ray failures told as WorkerLost (dead: the worker is gone)."""
        from ray.exceptions import RayActorError, RayError

        try:
            return await call()
        except RayActorError as exc:
            raise WorkerLost(
                f"Ray worker on {self.info.node_address} ({self.info.name}) died: {_first_line(exc)}"
            ) from None
        except RayError as exc:
            raise WorkerLost(
                f"Ray could not return the play from {self.info.name}: {_first_line(exc)}", dead=False
            ) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


REACH_TIMEOUT_S = 5.0


def _refuse_unreachable(address: str | None) -> None:
    """Refuse at once an address ``HOST:PORT`` (or ``ray://HOST:PORT``) where nothing accepts a connection.

    ``ray.init`` does not give up on such an address: it retries the GCS connection for as long as
    the run is left waiting (measured: still retrying after 10 minutes), with only log lines to say so.
    """
    if not address or address in ("auto", "local"):
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # a form Ray reads its own way: let ray.init judge it
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S).close()
    except OSError as exc:
        raise ExecutorError(
            f"cannot connect to the Ray cluster at {address}: nothing accepts a connection there "
            f"({exc.strerror or type(exc).__name__}); check the address and port of the head "
            "(`ray start --head` prints them; the Ray client port is usually 10001, the GCS port 6379)"
        ) from None


class RayExecutor:
    """Plays units on a Ray cluster: ``address`` as for ``ray.init`` (None: RAY_ADDRESS, else a local Ray)."""

    name = "ray"

    def __init__(
        self, *, address: str | None = None, workers: int | None = None, say: Callable[[str], None] | None = None
    ) -> None:
        _ray()  # refuse at once when the extra is missing
        if workers is not None and workers < 1:
            raise ExecutorError(f"workers must be at least 1, got {workers}")
        self.address, self.max_workers = address, workers
        self.say = say or log.warning

    def _connect(self) -> Any:
        ray = _ray()
        if not ray.is_initialized():
            _refuse_unreachable(self.address or os.environ.get("RAY_ADDRESS"))
            try:
                ray.init(address=self.address, logging_level=logging.WARNING, log_to_driver=False)
            except Exception as exc:
                where = self.address or os.environ.get("RAY_ADDRESS") or "a new local Ray"
                raise ExecutorError(f"cannot connect to the Ray cluster at {where}: {_first_line(exc)}") from None
        return ray

    def _nodes(self, ray: Any) -> list[dict[str, Any]]:
        nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) >= 1]
        nodes.sort(key=lambda n: n["NodeID"])
        if not nodes:
            raise ExecutorError(
                "the Ray cluster has no live node with a CPU for a worker (a head with --num-cpus 0 hosts none)"
            )
        return nodes[: self.max_workers] if self.max_workers else nodes

    @asynccontextmanager
    async def open(self, agent: Any, *, agent_file: Path | None, concurrency: int) -> AsyncIterator[list[Worker]]:
        """One worker per node, the agent's bundle shipped to each; stopped when the run ends."""
        if agent_file is None:
            raise ExecutorError("the Ray workers load the agent from its file: give the agent as an agent file")
        ray = self._connect()
        agent_relative, bundle, left_behind = build_bundle(Path(agent_file))
        if left_behind:
            self.say(
                "these files are named by absolute path and are not shipped to the Ray workers; "
                "they must exist at the same path on every node: " + ", ".join(map(str, left_behind))
            )
        environment = {name: os.environ[name] for name in FORWARDED_ENV if name in os.environ}
        shipped = ray.put(bundle)
        remote = ray.remote(PlayWorker)
        actors = [
            self._start(remote, node, concurrency).remote(agent_relative, shipped, environment)
            for node in self._nodes(ray)
        ]
        try:
            yield await self._describe(ray, actors)
        finally:
            await self._stop(ray, actors)

    def _start(self, remote: Any, node: dict[str, Any], concurrency: int) -> Any:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        return remote.options(
            num_cpus=1,
            max_concurrency=concurrency + 2,  # room for describe and close beside the plays
            max_restarts=0,  # a dead worker is the dispatcher's to handle, not Ray's to restart mid-unit
            scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
        )

    async def _describe(self, ray: Any, actors: list[Any]) -> list[Worker]:
        try:
            described = await asyncio.wait_for(asyncio.gather(*(a.describe.remote() for a in actors)), START_TIMEOUT_S)
        except Exception as exc:
            raise ExecutorError(f"the Ray workers did not start: {_first_line(exc)}") from None
        problems = []
        workers: list[Worker] = []
        mine = _version()
        for actor, about in zip(actors, described, strict=True):
            name = f"ray-{about['hostname']}-{about['node_id'][:8]}"
            if about["problem"]:
                problems.append(f"{name}: {about['problem']}")
            if about["version"] != mine:
                problems.append(
                    f"{name}: copilot-eval {about['version']} there, {mine} here; install the same version on every node"
                )
            info = WorkerInfo(
                name=name, node_id=about["node_id"], node_address=about["node_address"], hostname=about["hostname"]
            )
            workers.append(RayWorker(actor, info, about["pid"]))
        if problems:
            raise ExecutorError("the agent cannot run on the Ray workers:\n" + "\n".join(problems))
        return workers

    async def _stop(self, ray: Any, actors: list[Any]) -> None:
        try:
            await asyncio.wait_for(asyncio.gather(*(a.close.remote() for a in actors), return_exceptions=True), 15)
        except Exception:
            pass  # killing the actor below ends its runtimes with it
        for actor in actors:
            try:
                ray.kill(actor)
            except Exception:
                pass  # already gone with its node


# --- a lift's arms on the cluster (lift.remote) ----------------------------------------------------


class RayArmWorker(RayWorker):
    """The driver's handle on one remote worker holding every arm of a lift: plays a unit with a named arm."""

    async def play_arm(self, arm: str, unit: Unit) -> PlayedEvidence:
        """Play ``unit`` with ``arm``'s agent on the worker's node; WorkerLost when the worker or its node is gone."""
        played: PlayedEvidence = await self._remote(lambda: self.actor.play.remote(arm, unit, self.played_on))
        return played


def _pid(worker: RayWorker) -> int | None:
    pid = worker.played_on["worker_pid"]
    return pid if isinstance(pid, int) else None


@asynccontextmanager
async def open_arm_workers(
    executor: RayExecutor, arms: dict[str, tuple[Path, dict[str, Any]]], *, concurrency: int
) -> AsyncIterator[list[RayArmWorker]]:
    """One worker per node holding every arm: ``arms`` maps an arm's name to its agent file and the
    options its plays need (``CopilotEval.with_options``); each agent file's bundle is shipped as
    ``open`` ships one. Stopped when the lift ends; ExecutorError before anything is played."""
    ray = executor._connect()
    shipped: dict[str, tuple[str, dict[str, tuple[bytes, int]], dict[str, Any]]] = {}
    for name, (agent_file, options) in arms.items():
        agent_relative, bundle, left_behind = build_bundle(agent_file)
        if left_behind:
            executor.say(
                f"arm {name}: these files are named by absolute path and are not shipped to the Ray workers; "
                "they must exist at the same path on every node: " + ", ".join(map(str, left_behind))
            )
        shipped[name] = (agent_relative, bundle, options)
    environment = {name: os.environ[name] for name in FORWARDED_ENV if name in os.environ}
    bundles = ray.put(shipped)
    remote = ray.remote(ArmsPlayWorker)
    actors = [executor._start(remote, node, concurrency).remote(bundles, environment) for node in executor._nodes(ray)]
    try:
        described = await executor._describe(ray, actors)
        yield [RayArmWorker(w.actor, w.info, _pid(w)) for w in described if isinstance(w, RayWorker)]
    finally:
        await executor._stop(ray, actors)


__all__ = [
    "FORWARDED_ENV",
    "START_TIMEOUT_S",
    "RayArmWorker",
    "RayExecutor",
    "RayWorker",
    "build_bundle",
    "open_arm_workers",
]
