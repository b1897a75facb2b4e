"""A suite written as data (the built-in one, a YAML file) as ``run_suite`` plays it.

Each play's environment server is this Python running ``env_server.py`` on the play's spec (or
the ``server_command`` given instead: a filter in front of it, an environment of one's own); the
checks are the suite's model-free ones, read from the play's evidence (``checks``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evidence import CopilotResult
from copilot_eval.security.cases import Play, SecurityCase, plan_cases
from copilot_eval.security.checks import check_all
from copilot_eval.security.environment import default_server_command, environment_spec, goal_checks
from copilot_eval.security.playable import Judgement
from copilot_eval.security.suite import InjectionSuite

__all__ = ["DataSuite"]


class DataSuite:
    """An :class:`InjectionSuite` played through the built-in environment server (a ``PlayableSuite``)."""

    def __init__(self, suite: InjectionSuite, *, server_command: Sequence[str] | None = None) -> None:
        self.suite = suite
        self.name = suite.name
        self.description = suite.description
        self.server_command = list(server_command) if server_command else default_server_command()

    def cases(self) -> list[SecurityCase]:
        """The suite's cases (``cases.plan_cases``)."""
        return plan_cases(self.suite)

    def server_names(self) -> list[str]:
        """The environments' server names."""
        return sorted({env.server for env in self.suite.environments.values()})

    def _environment(self, play: Play) -> Any:
        task = next(task for task in self.suite.tasks if task.id == play.case.task)
        return self.suite.environment_of(task)

    def server(self, play: Play, spec_dir: Path) -> tuple[str, dict[str, Any]]:
        """Write the play's spec and name the command that serves it."""
        environment = self._environment(play)
        spec_path = spec_dir / f"{play.key}.json"
        write_text_atomically(spec_path, json.dumps(environment_spec(self.suite, environment, play), indent=2) + "\n")
        command = self.server_command
        # Absolute: the runtime starts the server in the play's working directory, not in ours.
        return environment.server, {"command": command[0], "args": [*command[1:], str(spec_path.resolve())]}

    def judge(self, play: Play, result: CopilotResult) -> Judgement:
        """The task's and the goal's checks on the play's evidence."""
        environment = self._environment(play)
        task = next(task for task in self.suite.tasks if task.id == play.case.task)
        task_held, task_said = check_all(task.check, result, environment, play)
        if not play.case.attacked:
            return Judgement(task_held, task_said)
        goal_held, goal_said = check_all(goal_checks(self.suite, play), result, environment, play)
        return Judgement(task_held, task_said, goal_held, goal_said)
