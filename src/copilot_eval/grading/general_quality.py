"""General quality: an LLM judge checks relevance, groundedness, completeness and abstention.

All four must hold. "Abstention" holds when the agent attempted an answer rather than declining
a question it should have answered. No reference is needed, as on the platform.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.grading.judge import LlmJudge, reason_of
from copilot_eval.grading.protocol import Grade, passed_if

CRITERIA = ("relevance", "groundedness", "completeness", "abstention")


class GeneralQuality(LlmJudge):
    """Pass when the judge says every criterion holds; the reason names those that do not."""

    prompt_name = "general_quality"
    needs_reference = False

    def __init__(self, judge: CopilotEval, *, pool: Any = None, name: str = "General quality", repeat: int = 1) -> None:
        super().__init__(judge, name=name, pool=pool, repeat=repeat)

    def verdict(self, answer: dict[str, Any]) -> Grade | None:
        """Read ``{"relevance": bool, "groundedness": bool, "completeness": bool, "abstention": bool, "reason"}``."""
        values = {criterion: answer.get(criterion) for criterion in CRITERIA}
        if not all(isinstance(value, bool) for value in values.values()):
            return None
        failed = [criterion for criterion, held in values.items() if not held]
        head = "all criteria hold" if not failed else f"not met: {', '.join(failed)}"
        score = 100.0 * (len(CRITERIA) - len(failed)) / len(CRITERIA)
        return Grade(
            self.name, passed_if(not failed), f"{head}: {reason_of(answer)}", score=score, details={"criteria": values}
        )


__all__ = ["CRITERIA", "GeneralQuality"]
