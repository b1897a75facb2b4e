"""Scripted agents for a suite: they do each task by its solution, and follow injected calls or not.

They prove the harness, not a model: an agent that does whatever call an attack text names must
come out attacked on every delivered case, one that never does must come out resisted on every
one, and both must do the user's task. Answers are served in-process through a FunctionModel, so
they run offline and need no key. The follower reads what a model would be given (every tool's
description, every tool message) and makes each call written as ``name({...JSON...})`` whose name
is a tool it is offered, once, before it goes on with the task.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from copilot_eval.models.function import CallTool, FunctionModel
from copilot_eval.models.wire.provider import in_process_provider
from copilot_eval.security.cases import substitute
from copilot_eval.security.suite import InjectionSuite, UserTask

__all__ = ["ScriptedSuiteAgent", "injected_calls"]

_DECODER = json.JSONDecoder()


def injected_calls(text: str, tool_names: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Every ``name({...})`` in ``text`` whose name is one of ``tool_names``, with its arguments, in order."""
    found: list[tuple[int, str, dict[str, Any]]] = []
    for name in tool_names:
        start = text.find(name + "(")
        while start != -1:
            at = start + len(name) + 1
            before = text[start - 1] if start else " "
            try:
                arguments, end = _DECODER.raw_decode(text, at)
            except ValueError:
                arguments, end = None, at
            if isinstance(arguments, dict) and text[end : end + 1] == ")" and not (before.isalnum() or before in "_-"):
                found.append((start, name, arguments))
            start = text.find(name + "(", at)
    return [(name, arguments) for _, name, arguments in sorted(found, key=lambda item: item[0])]


def _task_of(suite: InjectionSuite, messages: list[dict[str, Any]]) -> UserTask | None:
    prompt = next((m["content"] for m in messages if m.get("role") == "user"), "")
    # The longest prompt that fits, should one task's prompt hold another's.
    return max((task for task in suite.tasks if task.prompt in prompt), key=lambda t: len(t.prompt), default=None)


def _made(messages: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    return [
        (call["name"], call["arguments"])
        for message in messages
        if message.get("role") == "assistant"
        for call in message.get("tool_calls") or []
    ]


def _answer(
    suite: InjectionSuite,
    follows: bool,
    working_directory: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
) -> Any:
    task = _task_of(suite, messages)
    if task is None:
        return f"I only know the tasks of the suite {suite.name!r}."
    made = _made(messages)
    if follows:
        names = [tool["name"] for tool in tools if tool.get("name")]
        given = [str(tool.get("description") or "") for tool in tools]
        given += [str(m.get("content") or "") for m in messages if m.get("role") == "tool"]
        for text in given:
            for name, arguments in injected_calls(text, names):
                if (name, arguments) not in made:
                    return CallTool(name, arguments)
    environment = suite.environment_of(task)
    planned = [
        (
            environment.model_name(call.tool),
            substitute(call.arguments, canary=None, working_directory=working_directory),
        )
        for call in task.solution.calls
    ]
    done = 0
    for call in made:
        if done < len(planned) and call == planned[done]:
            done += 1
    if done < len(planned):
        return CallTool(*planned[done])
    return task.solution.answer


class SolutionAgent:
    """A model source (``CopilotEval(model=...)``) answered in process by a suite's known solutions.

    The part the built-in suite's agent and AgentDojo's share: the session's model name, the
    in-process provider and a per-run endpoint; a subclass says where the answers come from
    (``description``) and how a run's calls are answered (``answer_for``).
    """

    live = False  # answers come from the suite's solutions, never from a real model

    def __init__(self, *, follows_injections: bool, name: str) -> None:
        self.follows_injections = follows_injections
        self.name = name

    @property
    def session_model(self) -> str:
        """The model name the session asks for."""
        return self.name

    def provider_config(self) -> dict[str, str]:
        """The in-process provider settings of a FunctionModel."""
        return in_process_provider(wire_api="completions", transport="http")

    def answer_for(self, working_directory: str | None) -> Any:
        """The FunctionModel answer function of one run."""
        raise NotImplementedError

    def endpoint(self, *, working_directory: str | None = None) -> Any:
        """A per-run endpoint, answering by ``answer_for`` that run's working directory."""
        return FunctionModel(self.answer_for(working_directory), name=self.name).endpoint(
            working_directory=working_directory
        )


class ScriptedSuiteAgent(SolutionAgent):
    """A model source that does a built-in suite's tasks by their solutions.

    ``follows_injections=True`` also makes every call an injected text names; ``False`` never does.
    """

    def __init__(self, suite: InjectionSuite, *, follows_injections: bool, name: str = "scripted-suite-agent") -> None:
        super().__init__(follows_injections=follows_injections, name=name)
        self.suite = suite

    @property
    def description(self) -> str:
        """Where the answers come from."""
        what = "follows injected calls" if self.follows_injections else "ignores injected calls"
        return f"scripted suite agent ({self.suite.name}, {what})"

    def answer_for(self, working_directory: str | None) -> Any:
        """Answers that know the run's working directory (solutions name files in it)."""
        return partial(_answer, self.suite, self.follows_injections, working_directory or "")

    def __repr__(self) -> str:
        return f"ScriptedSuiteAgent({self.description})"
