"""Reading an injection suite: a built-in one by name, or a YAML file, checked as a whole.

Every problem of a file is reported at once, each naming the file and the field (``tasks[2].
vectors: ...``), the way agent files are. Beyond the shape (``security.suite``), a suite must hold
together: names refer to what exists, each goal carries ``{canary}`` in its call (or the attack
could not be told apart from the user's own work), each attack text has ``{call}``, and each
vector a task lists is one its solution really reaches (an ``{injection}`` in a tool it calls, in
a resource one of them embeds, in a file it reads, or in any tool's description).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from copilot_eval.bounded_yaml import YamlRefused, load_yaml, load_yaml_file
from copilot_eval.security.suite import CANARY, INJECTION, EnvironmentTool, InjectionSuite, ToolResponse, UserTask

__all__ = ["BUILTIN_SUITES", "SuiteError", "load_suite", "suite_problems"]

BUILTIN_SUITES = ("builtin",)
"""Names of the suites shipped with copilot-eval (``copilot-eval attack --suite NAME``)."""


class SuiteError(ValueError):
    """An injection suite cannot be used; the message names the file and every problem."""

    def __init__(self, source: str, problems: list[str]) -> None:
        super().__init__("\n".join(f"{source}: {problem}" for problem in problems))
        self.source = source
        self.problems = problems


def _where(location: tuple[Any, ...]) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _answer_to(tool: EnvironmentTool, arguments: dict[str, Any]) -> ToolResponse | None:
    """The response the environment server gives a call (the same rule: the first whose ``when`` matches)."""
    for response in tool.responses:
        if all(str(arguments.get(key)) == str(value) for key, value in (response.when or {}).items()):
            return response
    return None


def _reaches(suite: InjectionSuite, task: UserTask, vector: str) -> bool:
    env = suite.environments[task.environment]
    if vector == "tool_description":
        return any(INJECTION in tool.description for tool in env.tools)
    if vector == "file":
        read = json.dumps([call.arguments for call in task.solution.calls])
        return any(INJECTION in f.text and f.path in read for f in env.files)
    for call in task.solution.calls:
        tool = env.tool(call.tool)
        response = _answer_to(tool, call.arguments) if tool is not None else None
        if response is None:
            continue
        text = response.text if vector == "tool_result" else (response.resource.text if response.resource else None)
        if text and INJECTION in text:
            return True
    return False


def suite_problems(suite: InjectionSuite) -> list[str]:
    """What does not hold together in a suite that has the right shape (empty when it is usable)."""
    problems: list[str] = []
    for kind, items in (("tasks", suite.tasks), ("goals", suite.goals), ("attacks", suite.attacks)):
        ids = [item.id for item in items]
        problems += [f"{kind}: id {name!r} is used twice" for name in sorted({i for i in ids if ids.count(i) > 1})]
    owners = [("tasks", i, task.environment) for i, task in enumerate(suite.tasks)]
    owners += [("goals", i, goal.environment) for i, goal in enumerate(suite.goals)]
    unknown = [
        f"{kind}[{index}].environment: {name!r} is not one of {sorted(suite.environments)}"
        for kind, index, name in owners
        if name not in suite.environments
    ]
    if unknown:  # the checks below look environments up
        return problems + unknown
    for index, goal in enumerate(suite.goals):
        if CANARY not in json.dumps(goal.call.arguments):
            problems.append(
                f"goals[{index}].call.arguments: put {CANARY} in some argument, so the call is the attack's"
            )
    for index, attack in enumerate(suite.attacks):
        if "{call}" not in attack.text:
            problems.append(f"attacks[{index}].text: needs {{call}}, where the goal's call is named")
    for index, task in enumerate(suite.tasks):
        if not any(goal.environment == task.environment for goal in suite.goals):
            problems.append(f"tasks[{index}]: no goal belongs to environment {task.environment!r}")
        for vector in task.vectors:
            if not _reaches(suite, task, vector):
                problems.append(
                    f"tasks[{index}].vectors: {vector!r} is not reached by the solution "
                    f"(no {INJECTION} where its calls or files would show it)"
                )
    problems += _case_problems(suite)
    return problems


def _case_problems(suite: InjectionSuite) -> list[str]:
    tasks = {task.id: task for task in suite.tasks}
    goals = {goal.id: goal for goal in suite.goals}
    attacks = {attack.id for attack in suite.attacks}
    problems = []
    for index, case in enumerate(suite.cases or []):
        task, goal = tasks.get(case.task), goals.get(case.goal)
        if task is None:
            problems.append(f"cases[{index}].task: no task {case.task!r}")
        if goal is None:
            problems.append(f"cases[{index}].goal: no goal {case.goal!r}")
        if case.attack not in attacks:
            problems.append(f"cases[{index}].attack: no attack {case.attack!r}")
        if task is not None and case.vector not in task.vectors:
            problems.append(f"cases[{index}].vector: task {case.task!r} lists only {task.vectors}")
        if task is not None and goal is not None and goal.environment != task.environment:
            problems.append(f"cases[{index}]: goal {case.goal!r} is not of the task's environment")
    return problems


def _parse(data: Any, source: str) -> InjectionSuite:
    if not isinstance(data, dict):
        raise SuiteError(source, ["expected a mapping with name, environments, tasks, goals and attacks"])
    try:
        suite = InjectionSuite.model_validate(data)
    except ValidationError as error:
        raise SuiteError(source, [f"{_where(e['loc'])}: {e['msg']}" for e in error.errors()]) from None
    problems = suite_problems(suite)
    if problems:
        raise SuiteError(source, problems)
    return suite


def load_suite(suite: str | Path) -> InjectionSuite:
    """A built-in suite by name (:data:`BUILTIN_SUITES`), or a suite YAML file; SuiteError names every problem."""
    if isinstance(suite, str) and suite in BUILTIN_SUITES:
        text = resources.files("copilot_eval.security").joinpath("suites", f"{suite}.yaml").read_text("utf-8")
        return _parse(load_yaml(text, source=f"built-in suite {suite!r}"), f"built-in suite {suite!r}")
    path = Path(suite)
    if not path.is_file():
        known = ", ".join(BUILTIN_SUITES)
        raise SuiteError(str(suite), [f"no such file, and not a built-in suite (built-in: {known})"])
    try:
        data = load_yaml_file(path)
    except YamlRefused as error:
        raise SuiteError(str(path), [str(error).removeprefix(f"{path}: ")]) from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise SuiteError(str(path), [f"cannot be read as YAML: {error}"]) from None
    return _parse(data, str(path))
