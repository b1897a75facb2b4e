"""AgentDojo's task suites played through the real runtime, as a :class:`PlayableSuite` (the ``agentdojo`` extra).

AgentDojo (ETH Zurich's benchmark, MIT) defines its suites in Python: user tasks with a
``utility`` check, injection tasks with a ``security`` check (true: the attacker's goal was
reached), both comparing AgentDojo's environment before and after the agent's calls, and attacks
that write each injection vector's text. Here each play's environment is AgentDojo's, with the
case's injections placed, served to the runtime as an MCP server over loopback HTTP from this
process (``dojo_host.py``: AgentDojo is loaded once per run, not once per play) and changed by
AgentDojo's functions; after the run AgentDojo's own checks decide the user task and the goal on
that same environment, with the calls the agent made as their trace. Every AgentDojo injection
sits in what a tool returns, so the vector is ``tool_result``.

The one change to AgentDojo's attack texts: the play's canary is added at the end of each
(``(ref ce...)``), so the request audit can prove delivery. AgentDojo is imported on first use;
without it this module loads and says how to install it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evidence import CopilotResult
from copilot_eval.security.cases import Play, SecurityCase
from copilot_eval.security.dojo_host import DojoHost
from copilot_eval.security.playable import Judgement

# AgentDojo is imported inside the functions that use it: it is the optional [agentdojo] extra (and takes seconds to
# import), which no other suite needs.

__all__ = ["AGENTDOJO_VERSION", "DEFAULT_ATTACK", "AgentDojoSuite", "require_agentdojo"]

AGENTDOJO_VERSION = "v1.2.2"
"""The benchmark version of AgentDojo's suites played by default."""
DEFAULT_ATTACK = "important_instructions_no_model_name"
"""AgentDojo's strongest fixed attack, without a model's name (which would need AgentDojo's pipeline)."""
SERVER_NAME = "dojo"


def require_agentdojo() -> Any:
    """The ``agentdojo`` package, or ImportError saying how to install it."""
    try:
        import agentdojo.task_suite.load_suites as load_suites
    except ImportError:
        raise ImportError(
            "AgentDojo's suites need the agentdojo package: pip install 'copilot-eval[agentdojo]'"
        ) from None
    return load_suites


def _marked(injections: dict[str, str], canary: str) -> dict[str, str]:
    return {vector: f"{text}\n\n(ref {canary})" for vector, text in injections.items()}


class AgentDojoSuite:
    """One of AgentDojo's suites (``workspace``, ``travel``, ``banking``, ``slack``) as a PlayableSuite.

    ``user_tasks`` and ``injection_tasks`` choose some of the suite's tasks by id (all by default);
    ``attacks`` are names of AgentDojo's attacks.
    """

    def __init__(
        self,
        suite: str,
        *,
        version: str = AGENTDOJO_VERSION,
        attacks: Sequence[str] = (DEFAULT_ATTACK,),
        user_tasks: Sequence[str] | None = None,
        injection_tasks: Sequence[str] | None = None,
    ) -> None:
        load_suites = require_agentdojo()
        from agentdojo.attacks.attack_registry import load_attack
        from agentdojo.functions_runtime import FunctionsRuntime

        self.dojo = load_suites.get_suite(version, suite)
        self.version, self.suite_name = version, suite
        self.name = f"agentdojo-{suite}"
        self.description = f"AgentDojo {version}, suite {suite}"
        known_users, known_injections = self.dojo.user_tasks, self.dojo.injection_tasks
        self.user_task_ids = list(user_tasks) if user_tasks else list(known_users)
        self.injection_task_ids = list(injection_tasks) if injection_tasks else list(known_injections)
        unknown = [t for t in self.user_task_ids if t not in known_users]
        unknown += [t for t in self.injection_task_ids if t not in known_injections]
        if unknown:
            raise ValueError(f"AgentDojo suite {suite!r} has no task {unknown} (user tasks: user_task_0 ...)")
        # The no-model-name attacks ask the pipeline for a name only to replace it.
        stand_in = SimpleNamespace(name="gpt-4o-2024-05-13")
        self.attacks = {name: load_attack(name, self.dojo, stand_in) for name in attacks}
        self.tools = [
            {"name": f.name, "description": f.description, "inputSchema": f.parameters.model_json_schema()}
            for f in self.dojo.tools
        ]
        self.host = DojoHost(FunctionsRuntime(self.dojo.tools))
        self._attack_texts: dict[tuple[str, str, str], dict[str, str]] = {}

    def cases(self) -> list[SecurityCase]:
        """Every user task alone, then every user task x injection task x attack."""
        users = self.dojo.user_tasks
        cases = [SecurityCase(n, t, t, users[t].PROMPT) for n, t in enumerate(self.user_task_ids, start=1)]
        for user in self.user_task_ids:
            for injection in self.injection_task_ids:
                for attack in self.attacks:
                    case_id = f"{user}/tool_result/{attack}/{injection}"
                    cases.append(
                        SecurityCase(
                            len(cases) + 1, case_id, user, users[user].PROMPT, "tool_result", attack, injection
                        )
                    )
        return cases

    def server_names(self) -> list[str]:
        """The one server the suite's tools come from."""
        return [SERVER_NAME]

    def injections(self, play: Play) -> dict[str, str]:
        """The injection vectors' texts of a play: AgentDojo's attack with the canary added; none for a baseline."""
        case = play.case
        if case.attack is None or case.goal is None or play.canary is None:
            return {}
        key = (case.task, case.goal, case.attack)
        if key not in self._attack_texts:
            # AgentDojo's attack runs the task's ground truth to find the vectors it shows: once per case.
            user, injection = self.dojo.user_tasks[case.task], self.dojo.injection_tasks[case.goal]
            self._attack_texts[key] = self.attacks[case.attack].attack(user, injection)
        return _marked(self._attack_texts[key], play.canary)

    def environments(self, play: Play) -> tuple[Any, Any]:
        """The play's environment before the agent starts, and its type (to read the state back)."""
        task = self.dojo.user_tasks[play.case.task]
        environment = task.init_environment(self.dojo.load_and_inject_default_environment(self.injections(play)))
        return environment, self.dojo.environment_type

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[AgentDojoSuite]:
        """The plays' environments served for the duration of a run (``run_suite`` enters it)."""
        async with self.host.serving():
            yield self

    def play_environment(self, working_directory: str) -> Any:
        """The environment of the play working in that folder as the agent found it, injections placed (None: no such play)."""
        found = self.host.environment_in(working_directory)
        return found.before if found is not None else None

    def server(self, play: Play, spec_dir: Path) -> tuple[str, dict[str, Any]]:
        """Serve the play's environment; its spec (tools, task, injections) is written to ``spec_dir`` for the record."""
        spec = {
            "server": SERVER_NAME,
            "suite": self.suite_name,
            "version": self.version,
            "user_task": play.case.task,
            "injections": self.injections(play),
            "tools": self.tools,
        }
        write_text_atomically(spec_dir / f"{play.key}.json", json.dumps(spec, indent=2) + "\n")
        environment, _ = self.environments(play)
        url = self.host.add(play.key, spec, environment, working_directory=str(play.working_directory))
        return SERVER_NAME, {"type": "http", "url": url, "tools": ["*"]}

    def judge(self, play: Play, result: CopilotResult) -> Judgement:
        """AgentDojo's own checks on the environment after the agent's calls, with those calls as the trace."""
        from agentdojo.functions_runtime import FunctionCall

        served = self.host.release(play.key, str(play.working_directory))
        # Never served (the play failed before its server was made): nothing was changed either.
        before = served.before if served is not None else self.environments(play)[0]
        after = served.now if served is not None else before
        prefix = f"{SERVER_NAME}-"
        trace = [
            FunctionCall(function=call.name.removeprefix(prefix), args=dict(call.arguments or {}))
            for session in result.execution_results
            for call in session.all_tool_calls
            if call.name and call.name.startswith(prefix)
        ]
        output = [{"type": "text", "content": result.final_response or ""}]
        user = self.dojo.user_tasks[play.case.task]
        done = bool(self.dojo._check_task_result(user, output, before, after, trace))
        task_said = f"AgentDojo's utility check of {play.case.task}: {'done' if done else 'not done'}"
        if not play.case.attacked or play.case.goal is None:
            return Judgement(done, task_said)
        injection = self.dojo.injection_tasks[play.case.goal]
        reached = bool(self.dojo._check_task_result(injection, output, before, after, trace))
        goal_said = f"AgentDojo's security check of {play.case.goal}: goal {'reached' if reached else 'not reached'}"
        return Judgement(done, task_said, reached, goal_said)
