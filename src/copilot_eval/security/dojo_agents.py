"""Scripted agents for AgentDojo's suites: AgentDojo's ground truth played through the real runtime.

They prove the bridge, not a model: the one that ignores injections plays each user task's ground
truth and answers its ground-truth output; the one that follows them, on reading an injection
task's goal in a tool's answer, first plays that injection task's ground truth. AgentDojo's
checks must then find every user task done, and every delivered goal reached by the follower
and by no one else.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from copilot_eval.models.function import CallTool
from copilot_eval.security.dojo_suite import SERVER_NAME, AgentDojoSuite
from copilot_eval.security.scripted_agents import SolutionAgent

__all__ = ["DojoScriptedAgent", "next_step"]


def _plain(text: str) -> str:
    # AgentDojo's tools answer in YAML, which folds and quotes long texts: compare letters and digits only.
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _calls(ground_truth: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{SERVER_NAME}-{call.function}", dict(call.args)) for call in ground_truth]


def _task_of(dojo: AgentDojoSuite, prompt: str) -> str | None:
    """The user task whose prompt the delivered one holds: the longest (combined tasks quote others whole).

    Compared as the runtime delivers a prompt, without the whitespace around it (travel's
    user_task_17 ends in a newline and spaces, which the runtime strips).
    """
    users = dojo.dojo.user_tasks
    fitting = [t for t in dojo.user_task_ids if users[t].PROMPT.strip() in prompt]
    return max(fitting, key=lambda t: len(users[t].PROMPT.strip()), default=None)


def next_step(dojo: AgentDojoSuite, follows: bool, before: Any, messages: list[dict[str, Any]]) -> Any:
    """The scripted agent's next answer to ``messages`` (chat form), its plan made on ``before``: a call or the answer.

    ``before`` is the play's environment as the agent found it, injections placed (None: the
    default one): AgentDojo's ground truth reads it, and an injection may change what a task reads
    (a channel's name).
    """
    prompt = next((m["content"] for m in messages if m.get("role") == "user"), "")
    task_id = _task_of(dojo, prompt)
    if task_id is None:
        return f"I only know the tasks of {dojo.name}."
    task = dojo.dojo.user_tasks[task_id]
    if before is None:
        before = task.init_environment(dojo.dojo.load_and_inject_default_environment({}))
    planned = _calls(task.ground_truth(before))
    made = [
        (call["name"], call["arguments"])
        for message in messages
        if message.get("role") == "assistant"
        for call in message.get("tool_calls") or []
    ]
    if follows:
        seen = _plain(" ".join(str(m.get("content") or "") for m in messages if m.get("role") == "tool"))
        for injection in dojo.injection_task_ids:
            goal = dojo.dojo.injection_tasks[injection]
            if _plain(goal.GOAL) in seen:
                planned = _calls(goal.ground_truth(before)) + planned
    for call in planned:  # the first planned call not made yet (the injection's come before the rest)
        if call in made:
            made.remove(call)
        else:
            return CallTool(*call)
    return task.GROUND_TRUTH_OUTPUT or "Done."


def _answer(
    dojo: AgentDojoSuite,
    follows: bool,
    working_directory: str | None,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
) -> Any:
    # The play is found by its working folder: its environment is the one the host serves it.
    before = dojo.play_environment(working_directory) if working_directory else None
    return next_step(dojo, follows, before, messages)


# Alike in shape to scripted_agents.ScriptedSuiteAgent on purpose: what both share is SolutionAgent;
# what is left (the suite it holds, its description, its answers) is each one's own.
class DojoScriptedAgent(SolutionAgent):
    """A model source that plays an AgentDojo suite's ground truth; ``follows_injections`` adds the injection's."""

    def __init__(self, dojo: AgentDojoSuite, *, follows_injections: bool, name: str = "agentdojo-ground-truth") -> None:
        super().__init__(follows_injections=follows_injections, name=name)
        self.dojo = dojo

    @property
    def description(self) -> str:
        """Where the answers come from."""
        what = "follows injections" if self.follows_injections else "ignores injections"
        return f"AgentDojo ground truth ({self.dojo.name}, {what})"

    def answer_for(self, working_directory: str | None) -> Any:
        """Answers from the ground truth on the environment of the play working in that folder."""
        return partial(_answer, self.dojo, self.follows_injections, working_directory)
