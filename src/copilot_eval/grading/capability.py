"""Capability use: the expected tools, skills and subagents were invoked and completed.

Read from the recorded evidence only; no model call. A call that started but has no recorded
outcome is not "completed": execution is not correctness, and unknown is not success.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if

SKILL_TOOL = "skill"  # the runtime loads a skill through this built-in tool: {"skill": name}


def _tool_completed(result: CopilotResult, name: str) -> bool:
    return any(call.success is True for call in result.tool_calls_for(name))


def _skill_completed(result: CopilotResult, name: str) -> bool:
    return any(
        call.success is True and (call.arguments or {}).get("skill") == name
        for call in result.tool_calls_for(SKILL_TOOL)
    )


def _subagent_completed(result: CopilotResult, name: str) -> bool:
    return any(inv.name == name and inv.status == "completed" for inv in result.subagent_invocations)


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
        """Check the session evidence for each expected invocation."""
        result = evidence.result
        if not hasattr(result, "tool_calls_for"):  # a Copilot Studio target does not show its tool calls
            return Grade(
                self.name,
                CaseStatus.ERROR,
                "tool, skill and subagent calls are not visible for this "
                "target (Copilot Studio over Direct Line / the Agents SDK): capability use cannot be graded",
            )
        if not result.turns:
            return Grade(self.name, CaseStatus.ERROR, f"no session evidence: {result.error or 'empty result'}")
        checks = (
            [(f"tool {n}", _tool_completed(result, n)) for n in self.tools]
            + [(f"skill {n}", _skill_completed(result, n)) for n in self.skills]
            + [(f"subagent {n}", _subagent_completed(result, n)) for n in self.subagents]
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
