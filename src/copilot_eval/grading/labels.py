"""Custom labels: an LLM judge classifies the answer into one of the user's labels, each mapped to pass or fail."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalTestCase
from copilot_eval.grading.judge import LlmJudge, reason_of
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if


class LabelClassifier(LlmJudge):
    """Pass when the judge picks a label mapped to pass; an unknown label is an error."""

    prompt_name = "labels"
    needs_reference = False

    def __init__(
        self,
        judge: CopilotEval,
        labels: Mapping[str, bool],
        *,
        instructions: str = "",
        pool: Any = None,
        name: str = "Custom",
        repeat: int = 1,
    ) -> None:
        if not labels or not any(labels.values()):
            raise ValueError("labels: give at least one label, and at least one mapped to pass")
        super().__init__(judge, name=name, pool=pool, repeat=repeat)
        self.labels, self.instructions = dict(labels), instructions

    def prompt_fields(self, case: EvalTestCase, evidence: CaseEvidence) -> dict[str, str]:
        """Adds the label list and the user's instructions to the template fields."""
        listed = "\n".join(f"- {label}" for label in self.labels)
        return {
            **super().prompt_fields(case, evidence),
            "labels": listed,
            "instructions": self.instructions or "Classify the answer.",
        }

    def verdict(self, answer: dict[str, Any]) -> Grade | None:
        """Read ``{"label": one of the labels, "reason": ...}``."""
        label = answer.get("label")
        if label not in self.labels:
            return None
        return Grade(
            self.name, passed_if(self.labels[label]), f"label {label!r}: {reason_of(answer)}", details={"label": label}
        )


__all__ = ["LabelClassifier"]
