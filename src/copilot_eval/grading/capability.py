"""Capability use: the expected tools, skills and subagents were invoked and completed.

Read from the recorded steps only (``PlayedEvidence.observed_steps``), no model call: the Copilot
runtime's tool calls and the subagents the agent started (with their own calls), or the actions a
Copilot Studio agent's plan reports. A call that started but has no recorded outcome is not
"completed": execution is not correctness, and unknown is not success. Steps a target does not
show make the grade an ``error``: invisible is not absent.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence.trajectory import ObservedCall
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if

SKILL_TOOL = "skill"  # the runtime loads a skill through this built-in tool: {"skill": name}
TOOL_KINDS = ("tool", "action")  # a Copilot Studio plan's actions are its tools


def _tool_completed(steps: Sequence[ObservedCall], name: str) -> bool:
    return any(
        step.succeeded is True and ((step.kind in TOOL_KINDS and step.name == name) or step.via_tool == name)
        for step in steps
    )


def _skill_completed(steps: Sequence[ObservedCall], name: str) -> bool:
    return any(
        step.succeeded is True
        and step.kind == "tool"
        and step.name == SKILL_TOOL
        and (step.arguments or {}).get("skill") == name
        for step in steps
    )


def _subagent_completed(steps: Sequence[ObservedCall], name: str) -> bool:
    return any(step.succeeded is True and step.kind == "subagent" and step.name == name for step in steps)


class CapabilityUse:
    """Pass when every expected tool, skill and subagent was invoked and completed successfully."""

    def __init__(
        self,
        *,
        tools: Sequence[str] = (),
        skills: Sequence[str] = (),
        subagents: Sequence[str] = (),
        name: str = "Capability use",
    ) -> None:
        if not (tools or skills or subagents):
            raise ValueError("capability: expect at least one tool, skill or subagent")
        self.name = name
        self.tools, self.skills, self.subagents = tuple(tools), tuple(skills), tuple(subagents)

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Check the conversation's steps for each expected invocation."""
        steps = evidence.result.observed_steps()
        if isinstance(steps, str):  # the target does not show its steps
            return Grade(self.name, CaseStatus.ERROR, f"capability use cannot be graded: {steps}")
        if not steps and evidence.answer is None:
            return Grade(self.name, CaseStatus.ERROR, f"no session evidence: {evidence.runtime_error}")
        checks = (
            [(f"tool {n}", _tool_completed(steps, n)) for n in self.tools]
            + [(f"skill {n}", _skill_completed(steps, n)) for n in self.skills]
            + [(f"subagent {n}", _subagent_completed(steps, n)) for n in self.subagents]
        )
        missing = [label for label, done in checks if not done]
        found = [label for label, done in checks if done]
        reason = f"missing or not completed: {', '.join(missing)}" if missing else f"all used: {', '.join(found)}"
        # A failed session can still show every expected call: that is a pass on capability use.
        return Grade(
            self.name,
            passed_if(not missing),
            reason,
            score=100.0 * len(found) / len(checks),
            details={"used": found, "missing": missing},
        )


__all__ = ["CapabilityUse"]
