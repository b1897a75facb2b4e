"""Lexical text similarity: rapidfuzz's token-sort ratio (case and punctuation ignored) between answer and reference.

Scores are on the 0-100 scale every grader records. Lexical, not semantic: it rewards shared
words. Use ``compare_meaning`` when wording may differ.
"""

from __future__ import annotations

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from copilot_eval.evalsets import EvalTestCase
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if, ungradable

#: Default pass mark as the platform's fraction (0.0-1.0); kept for code that reads it.
DEFAULT_THRESHOLD = 0.7
#: Default pass mark on the 0-100 scale scores are recorded on.
DEFAULT_PASS_SCORE = 70.0


def pass_score_from(value: float) -> float:
    """Read a pass mark written either way: 0-1 as the platform's fraction (0.6), above 1 as a percent (60)."""
    if not 0.0 <= value <= 100.0:
        raise ValueError(f"similarity: pass mark must be a fraction 0-1 or a percent 0-100, got {value:g}")
    return value * 100.0 if value <= 1.0 else value


class TextSimilarity:
    """Pass when the similarity (0-100) of answer and reference reaches the pass mark.

    ``threshold`` may be given as the platform writes it (0.0-1.0) or as a percent; it is kept as
    ``pass_score`` on the 0-100 scale.
    """

    needs_reference = True

    def __init__(self, threshold: float = DEFAULT_THRESHOLD, *, name: str = "Text similarity") -> None:
        self.name, self.pass_score = name, pass_score_from(threshold)

    @property
    def threshold(self) -> float:
        """The pass mark as a fraction (0.0-1.0), the platform's way of writing it."""
        return self.pass_score / 100.0

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Score the answer against the reference."""
        if (error := ungradable(self.name, case, evidence, passing_score=self.pass_score)) is not None:
            return error
        score = round(fuzz.token_sort_ratio(evidence.answer or "", case.response, processor=default_process), 2)
        ok = score >= self.pass_score
        reason = f"similarity {score:g} {'>=' if ok else '<'} pass score {self.pass_score:g} (of 100)"
        return Grade(self.name, passed_if(ok), reason, score=score, passing_score=self.pass_score)


__all__ = ["DEFAULT_PASS_SCORE", "DEFAULT_THRESHOLD", "TextSimilarity", "pass_score_from"]
