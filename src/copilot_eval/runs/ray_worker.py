"""The Ray worker: one actor per node, owning that node's runtime pool, playing whole units.

It runs in a Ray worker process. The agent's bundle (the agent file and the files it names, sent
through Ray's object store) is written into a folder of this worker's own, and the agent is
loaded from there by the same relative paths as on the driver. It plays and returns evidence; it never grades, never
writes the run folder and never retries: the driver does all of that.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from copilot_eval.evidence.played_on import PlayedOn
from copilot_eval.models.choice import choose_model
from copilot_eval.runs.case_runner import Unit, play_unit
from copilot_eval.runs.prepare import load_agent
from copilot_eval.runs.target import runtime_agent

# Ray, the runtime and its pool are imported inside the actor's methods: `import copilot_eval.runs` loads this module,
# and a local run needs neither Ray (the optional [ray] extra) nor the Copilot SDK (about 0.6 s) at import.


def _version() -> str | None:
    try:
        return version("copilot-eval")
    except PackageNotFoundError:
        return None


class PlayWorker:
    """A Ray actor class (made remote by the executor): load the agent once, play units on request."""

    def __init__(self, agent_relative: str, bundle: dict[str, tuple[bytes, int]], environment: dict[str, str]) -> None:
        os.environ.update(environment)  # switches such as COPILOT_EVAL_NO_LIVE_MODELS, as the driver has them
        self.agent: Any = None
        self.problem: str | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="copilot-eval-agent-"))
        try:
            for name, (content, mode) in bundle.items():
                target = self.folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
                target.chmod(mode)
            self.agent = load_agent(self.folder / agent_relative, option="--agent (on the Ray worker)")
            self._check_model()
        except Exception as exc:  # reported by describe(), before any unit is sent
            self.problem = str(exc)

    def _check_model(self) -> None:
        if (runtime := runtime_agent(self.agent)) is not None:
            choose_model(runtime)  # a BYOK key variable missing on this node fails here, by name

    def describe(self) -> dict[str, Any]:
        """Where this worker runs, which copilot-eval it has, and whether the agent loaded here."""
        import ray

        context = ray.get_runtime_context()
        return {
            "node_id": context.get_node_id(),
            "node_address": ray.util.get_node_ip_address(),
            "hostname": socket.gethostname(),
            "pid": os.getpid(),
            "version": _version(),
            "problem": self.problem,
        }

    async def play(self, unit: Unit, played_on: dict[str, Any]) -> Any:
        """Play ``unit`` on this node's runtime pool; the evidence names this node and process."""
        result = await play_unit(unit, self.agent)
        result.played_on = PlayedOn(**played_on)  # the evidence of either kind of target names where it was played
        return result

    async def play_trigger(self, prompt: str, options: dict[str, Any], played_on: dict[str, Any]) -> Any:
        """Play one prompt of a trigger set in a fresh session of the agent with ``options`` (the driver's player's).

        ``options`` are CopilotEval options (the request audit, the descriptions it watches, where a
        play stops), so a play here runs as it would on the driver; the evidence names this node.
        """
        # on use (see the top): the runtime and the Copilot SDK
        from copilot_eval.runtime.session.runner import run_copilot

        agent = runtime_agent(self.agent)
        if agent is None:
            raise ValueError("a trigger set plays a Copilot runtime agent; this agent file names a target")
        result = await run_copilot(agent.with_options(**options), prompt)
        result.played_on = PlayedOn(**played_on)
        return result

    async def close(self) -> None:
        """Stop this worker's runtimes (a killed worker's runtimes die with their pipes anyway)."""
        # on use (see the top): the runtime and the Copilot SDK
        from copilot_eval.runtime.process.pool import close_shared_pool

        await close_shared_pool()
        shutil.rmtree(self.folder, ignore_errors=True)


__all__ = ["ArmsPlayWorker", "PlayWorker"]


class ArmsPlayWorker:
    """A Ray actor class for a lift (made remote by ``open_arm_workers``): every arm's agent on one worker.

    Each arm's agent arrives as its own bundle and is loaded as ``PlayWorker`` loads one; the
    driver's ``options`` for that arm (the request audit on, the arm's markers watched) are applied
    here, so the evidence returned carries the audit the driver decides delivery from.
    """

    def __init__(
        self,
        arms: dict[str, tuple[str, dict[str, tuple[bytes, int]], dict[str, Any]]],
        environment: dict[str, str],
    ) -> None:
        self.arms: dict[str, PlayWorker] = {}
        for name, (agent_relative, bundle, options) in arms.items():
            worker = PlayWorker(agent_relative, bundle, environment)
            if worker.agent is not None:
                worker.agent = worker.agent.with_options(**options)
            self.arms[name] = worker

    def describe(self) -> dict[str, Any]:
        """As ``PlayWorker.describe``, the problem naming the arm whose agent did not load."""
        first = next(iter(self.arms.values()))
        about = first.describe()
        problems = [f"arm {name}: {w.problem}" for name, w in self.arms.items() if w.problem]
        about["problem"] = "; ".join(problems) or None
        return about

    async def play(self, arm: str, unit: Unit, played_on: dict[str, Any]) -> Any:
        """Play ``unit`` with ``arm``'s agent on this node's runtime pool."""
        return await self.arms[arm].play(unit, played_on)

    async def close(self) -> None:
        """Stop this worker's runtimes and remove every arm's folder."""
        for worker in self.arms.values():
            await worker.close()
