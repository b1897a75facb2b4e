"""Lexical text similarity: rapidfuzz's token-sort ratio (case and punctuation ignored) between answer and reference, 0.0-1.0.

Lexical, not semantic: it rewards shared words. Use ``compare_meaning`` when wording may differ.
"""

from __future__ import annotations

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from copilot_eval.evalsets import EvalTestCase
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if, ungradable

DEFAULT_THRESHOLD = 0.7


class TextSimilarity:
    """Pass when the similarity of answer and reference reaches ``threshold`` (0.0-1.0)."""

    def __init__(self, threshold: float = DEFAULT_THRESHOLD, *, name: str = "Text similarity") -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"similarity: threshold must be between 0 and 1, got {threshold}")
        self.name, self.threshold = name, threshold

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Score the answer against the reference."""
        if (error := ungradable(self.name, case, evidence, passing_score=self.threshold)) is not None:
            return error
        score = fuzz.token_sort_ratio(evidence.answer or "", case.response, processor=default_process) / 100.0
        ok = score >= self.threshold
        reason = f"similarity {score:.2f} {'>=' if ok else '<'} threshold {self.threshold:.2f}"
        return Grade(self.name, passed_if(ok), reason, score=round(score, 4), passing_score=self.threshold)


__all__ = ["DEFAULT_THRESHOLD", "TextSimilarity"]
