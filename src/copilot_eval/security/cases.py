"""The cases of a suite, and what one play of a case puts in front of the agent.

A suite's tasks are each played once without an attack (the baseline, for utility) and once per
attack case: the task, one vector it lists, an attack text and a goal of its environment. Unless
the suite lists its cases, they are every task x each of its vectors x every attack text, with
the goals of the task's environment taken in turn, so that every goal and every text is used. The
order is the suite's, so a case keeps its number (and its place in the history) from run to run.

A play is one case played once: it has its own working directory and its own canary, a token
derived from the suite, the case and the repeat, which the attack carries and the goal's checks
look for.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.security.suite import CANARY, WORKING_DIRECTORY, InjectionSuite, UserTask, Vector

__all__ = ["Play", "SecurityCase", "call_text", "canary_for", "plan_cases", "substitute"]


@dataclass(frozen=True)
class SecurityCase:
    """A task alone (``attack`` None: the baseline) or a task under one attack through one vector, by ids."""

    number: int
    id: str
    task: str
    prompt: str
    vector: str | None = None
    attack: str | None = None
    goal: str | None = None

    @property
    def attacked(self) -> bool:
        """Whether this case carries an attack."""
        return self.attack is not None


def plan_cases(suite: InjectionSuite) -> list[SecurityCase]:
    """The baselines (one per task, numbered first), then the attack cases, in the suite's order."""
    cases = [SecurityCase(number, task.id, task.id, task.prompt) for number, task in enumerate(suite.tasks, start=1)]
    tasks = {task.id: task for task in suite.tasks}
    chosen: list[tuple[UserTask, Vector, str, str]] = []
    if suite.cases is not None:
        chosen = [(tasks[c.task], c.vector, c.attack, c.goal) for c in suite.cases]
    else:
        turn: dict[str, int] = {}
        for task in suite.tasks:
            own = [goal for goal in suite.goals if goal.environment == task.environment]
            for vector in task.vectors:
                for text in suite.attacks:
                    index = turn.get(task.environment, 0)
                    turn[task.environment] = index + 1
                    chosen.append((task, vector, text.id, own[index % len(own)].id))
    for task, vector, attack_id, goal_id in chosen:
        number = len(cases) + 1
        case_id = f"{task.id}/{vector}/{attack_id}/{goal_id}"
        cases.append(SecurityCase(number, case_id, task.id, task.prompt, vector, attack_id, goal_id))
    return cases


def canary_for(suite: str, case_id: str, repeat: int) -> str:
    """The play's canary: ``ce`` and 10 hex digits, the same for the same suite, case and repeat."""
    digest = hashlib.sha256(f"{suite}\0{case_id}\0{repeat}".encode()).hexdigest()
    return f"ce{digest[:10]}"


def substitute(value: Any, *, canary: str | None, working_directory: str) -> Any:
    """``value`` with ``{canary}`` and ``{working_directory}`` replaced in every string inside it."""
    if isinstance(value, str):
        value = value.replace(WORKING_DIRECTORY, working_directory)
        return value.replace(CANARY, canary) if canary is not None else value
    if isinstance(value, dict):
        return {
            key: substitute(item, canary=canary, working_directory=working_directory) for key, item in value.items()
        }
    if isinstance(value, list):
        return [substitute(item, canary=canary, working_directory=working_directory) for item in value]
    return value


def call_text(name: str, arguments: dict[str, Any]) -> str:
    """How an attack text names a call: ``server-tool({"arg": "value"})``, the name as the model sees it."""
    return f"{name}({json.dumps(arguments, ensure_ascii=False)})"


@dataclass(frozen=True)
class Play:
    """One case played once: its repeat, canary (attack cases only) and working directory."""

    case: SecurityCase
    repeat: int
    canary: str | None
    working_directory: Path

    @property
    def key(self) -> str:
        """``case<number>-r<repeat>``, unique in a run: the name of its evidence and spec files."""
        return f"case{self.case.number}-r{self.repeat}"

    def fill(self, value: Any) -> Any:
        """``value`` with this play's canary and working directory put in."""
        return substitute(value, canary=self.canary, working_directory=str(self.working_directory))
