"""Compare meaning: an LLM judge scores 0-100 how well the answer carries the reference's meaning."""

from __future__ import annotations

from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.grading.judge import LlmJudge, reason_of
from copilot_eval.grading.protocol import Grade, passed_if

DEFAULT_PASS_SCORE = 50.0


class CompareMeaning(LlmJudge):
    """Pass when the judge's meaning score reaches ``pass_score`` (default 50)."""

    prompt_name = "compare_meaning"

    def __init__(
        self,
        judge: CopilotEval,
        *,
        pass_score: float = DEFAULT_PASS_SCORE,
        pool: Any = None,
        name: str = "Compare meaning",
        repeat: int = 1,
    ) -> None:
        if not 0 <= pass_score <= 100:
            raise ValueError(f"compare_meaning: pass score must be between 0 and 100, got {pass_score}")
        super().__init__(judge, name=name, pool=pool, repeat=repeat)
        self.pass_score = pass_score

    def verdict(self, answer: dict[str, Any]) -> Grade | None:
        """Read ``{"score": 0-100, "reason": ...}``."""
        score = answer.get("score")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 100:
            return None
        ok = score >= self.pass_score
        return Grade(
            self.name,
            passed_if(ok),
            f"meaning score {score:g}: {reason_of(answer)}",
            score=float(score),
            passing_score=self.pass_score,
        )


__all__ = ["DEFAULT_PASS_SCORE", "CompareMeaning"]
