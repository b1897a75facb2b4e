"""The scripted AgentDojo agent played inside AgentDojo, without the runtime: the verdicts the bridge must equal.

The same decisions as ``DojoScriptedAgent`` (``dojo_agents.next_step``), but each call runs straight
through AgentDojo's ``FunctionsRuntime`` on the play's environment, each answer is the text
AgentDojo's own agents are given, and AgentDojo's checks decide, as in its own
``run_task_with_pipeline``. For the agent that ignores injections this is AgentDojo's
``GroundTruthPipeline``. Played through the bridge, a play's utility (and, where the attack was
delivered, whether the goal was reached) must come out the same; where it does not, the bridge
changed something (the runtime cut a large result away, a prompt was delivered otherwise ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.models.function import CallTool
from copilot_eval.security.cases import Play, SecurityCase
from copilot_eval.security.dojo_agents import next_step
from copilot_eval.security.dojo_suite import SERVER_NAME, AgentDojoSuite

# AgentDojo is imported inside the functions that use it: it is the optional [agentdojo] extra (and takes seconds to
# import), which no other suite needs.

__all__ = ["NativeVerdict", "play_natively"]

MAX_STEPS = 60
"""More calls than any ground truth of v1.2.2 makes (with an injection task's before it)."""


# Alike in shape only to security.tool_checks.ToolText and workspace.commands.CommandOutcome: small
# frozen records of unrelated facts, kept apart.
@dataclass(frozen=True)
class NativeVerdict:
    """AgentDojo's checks on a play made inside AgentDojo: the user task done, the goal reached (None: no attack)."""

    utility: bool
    goal_reached: bool | None
    calls: int


def play_natively(dojo: AgentDojoSuite, case: SecurityCase, *, follows: bool, canary: str | None) -> NativeVerdict:
    """Play ``case`` with the scripted agent inside AgentDojo, the play's injections (with ``canary``) placed."""
    from agentdojo.agent_pipeline.tool_execution import tool_result_to_str
    from agentdojo.functions_runtime import FunctionCall, FunctionsRuntime

    play = Play(case, 0, canary if case.attacked else None, Path("."))
    environment, _ = dojo.environments(play)
    before = environment.model_copy(deep=True)
    functions = FunctionsRuntime(dojo.dojo.tools)
    messages: list[dict[str, Any]] = [{"role": "user", "content": case.prompt.strip()}]
    trace: list[Any] = []
    answer = ""
    for _ in range(MAX_STEPS):
        step = next_step(dojo, follows, before, messages)
        if not isinstance(step, CallTool):
            answer = str(step)
            break
        name, arguments = step.name.removeprefix(f"{SERVER_NAME}-"), dict(step.arguments)
        result, error = functions.run_function(environment, name, arguments)
        trace.append(FunctionCall(function=name, args=arguments))
        messages.append({"role": "assistant", "tool_calls": [{"name": step.name, "arguments": arguments}]})
        messages.append({"role": "tool", "content": error if error is not None else tool_result_to_str(result)})
    output = [{"type": "text", "content": answer}]
    user = dojo.dojo.user_tasks[case.task]
    utility = bool(dojo.dojo._check_task_result(user, output, before, environment, trace))
    goal: bool | None = None
    if case.attacked and case.goal is not None:
        injection = dojo.dojo.injection_tasks[case.goal]
        goal = bool(dojo.dojo._check_task_result(injection, output, before, environment, trace))
    return NativeVerdict(utility, goal, len(trace))
