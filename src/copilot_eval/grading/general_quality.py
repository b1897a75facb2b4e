"""General quality in its parts: an LLM judge scores them, the two-stage rule of ``quality_rule`` decides.

The judge scores relevance (1-5), answer completeness (0-3) and abstention for every answer, and,
where the case has knowledge context (``knowledge_context``: citations, what a knowledge search
found, or the platform's own figures), groundedness in that context (1-5) and how much of it the
answer covers (0-3). The grade's ``data`` holds each part as Copilot Studio's evaluation API names
it (``relevance: Yes`` ..., "NA" where not judged) beside the scores, so a local General quality
sets beside the platform's, part by part. No reference is needed, as on the platform; the prompt
is our own (``prompts/general_quality.md``).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalTestCase
from copilot_eval.evalsets.quality_parts import COMPLETENESS, CONTEXT_COVERAGE, GROUNDEDNESS, RELEVANCE
from copilot_eval.grading.judge import LlmJudge, parse_judge_answer, reason_of
from copilot_eval.grading.knowledge_context import KnowledgeContext, knowledge_context
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.grading.quality_rule import SCALES, QualityScores, quality_verdict

#: The judge's answer keys of each scored part (the JSON the prompt asks for).
_KEYS = {RELEVANCE: "relevance", COMPLETENESS: "completeness", GROUNDEDNESS: "groundedness"}
_KEYS[CONTEXT_COVERAGE] = "contextCoverage"


class _Missing(enum.Enum):
    """A part the judge's answer lacks or gives off its scale: unreadable, unlike a part left null (``None``)."""

    MISSING = enum.auto()


_MISSING = _Missing.MISSING
# A passage list longer than this is cut: the judge needs the knowledge, not a whole index.
_CONTEXT_CHARS = 12_000

_NO_CONTEXT = {"context_mention": "", "context_rules": "", "context_block": "", "context_fields": ""}
_CONTEXT_RULES = (
    "- groundedness, 1 to 5: is what the answer states supported by the knowledge below? 1 unrelated\n"
    "  to it; 2 claims it does not support (or inferences beyond it); 3 nothing in the answer to check\n"
    "  against it; 4 supported, a minor detail missing; 5 every claim supported.\n"
    "- contextCoverage, 0 to 3: of the parts of the knowledge the question needs, how many does the\n"
    "  answer carry? 0 none, 1 some, 2 most, 3 all.\n"
)


def _context_fields(context: KnowledgeContext) -> dict[str, str]:
    if context.passages:
        text = "\n".join(f"[{n}] {p}" for n, p in enumerate(context.passages, start=1))[:_CONTEXT_CHARS]
    else:
        text = (
            "(The agent drew on knowledge for this answer, but the record keeps none of its text. Give\n"
            "groundedness and contextCoverage as null unless the answer itself quotes its sources.)"
        )
    return {
        "context_mention": " and the knowledge the agent retrieved",
        "context_rules": _CONTEXT_RULES,
        "context_block": f"\nKnowledge the agent retrieved ({context.described}):\n{text}\n",
        "context_fields": ', "groundedness": <1-5 or null>, "contextCoverage": <0-3 or null>',
    }


def _score(answer: dict[str, Any], part: str) -> float | _Missing | None:
    """The part's score, ``None`` when the judge left it null, ``_MISSING`` when absent or not a score."""
    raw = answer.get(_KEYS[part], _MISSING)
    if raw is None or raw is _MISSING:
        return raw
    if isinstance(raw, str) and raw.strip().casefold() in ("null", "na", "n/a", "none", ""):
        return None
    if isinstance(raw, bool):
        return _MISSING
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return _MISSING
    low, high, _ = SCALES[part]
    return value if low <= value <= high else _MISSING


def _abstention(raw: Any) -> bool | _Missing | None:
    if raw is None or isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().casefold() in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[raw.strip().casefold()]
    return _MISSING


class GeneralQuality(LlmJudge):
    """Pass when the answer clears every part of the two-stage rule; the reason names the parts that did not."""

    prompt_name = "general_quality"
    needs_reference = False

    def __init__(self, judge: CopilotEval, *, pool: Any = None, name: str = "General quality", repeat: int = 1) -> None:
        super().__init__(judge, name=name, pool=pool, repeat=repeat)

    def prompt_fields(self, case: EvalTestCase, evidence: CaseEvidence) -> dict[str, str]:
        """The question and answer, and the knowledge context with its two extra parts when the case has one."""
        context = knowledge_context(evidence)
        extra = _context_fields(context) if context is not None else _NO_CONTEXT
        return {**super().prompt_fields(case, evidence), **extra}

    def read_answer_for(self, case: EvalTestCase, evidence: CaseEvidence, text: str | None) -> Grade | None:
        """The judge's answer read with the case's knowledge context (the rule's stage 2 where it has one)."""
        parsed = parse_judge_answer(text)
        grade = self.verdict_for(case, evidence, parsed) if parsed is not None else None
        return None if grade is None else dataclasses.replace(grade, details={**grade.details, "judge": parsed})

    def verdict_for(self, case: EvalTestCase, evidence: CaseEvidence, answer: dict[str, Any]) -> Grade | None:
        """Read the judge's scores and apply the two-stage rule, stage 2 where the case has knowledge context."""
        return self.grade_scores(answer, knowledge_context(evidence))

    def verdict(self, answer: dict[str, Any]) -> Grade | None:
        """The rule without knowledge context (stage 1 only)."""
        return self.grade_scores(answer, None)

    def grade_scores(self, answer: dict[str, Any], context: KnowledgeContext | None) -> Grade | None:
        """The grade of a judge's answer; ``None`` when a part is missing or off its scale (an unreadable answer)."""
        parts = [RELEVANCE, COMPLETENESS] + ([GROUNDEDNESS, CONTEXT_COVERAGE] if context is not None else [])
        scores: dict[str, float | None] = {}
        for part in parts:
            score = _score(answer, part)
            if isinstance(score, _Missing):
                return None
            scores[part] = score
        abstention = _abstention(answer.get("abstention", _MISSING))
        if isinstance(abstention, _Missing):
            return None
        rule = quality_verdict(
            QualityScores(
                relevance=scores[RELEVANCE],
                completeness=scores[COMPLETENESS],
                abstention=abstention,
                groundedness=scores.get(GROUNDEDNESS),
                context_coverage=scores.get(CONTEXT_COVERAGE),
                with_context=context is not None,
            )
        )
        if rule.failed:
            head = "not met: " + "; ".join(rule.failed)
        elif rule.unjudged:
            head = f"not judged (NA, not a pass): {', '.join(rule.unjudged)}"
        else:
            head = "every part holds"
        data: dict[str, Any] = dict(rule.parts)
        data |= {f"{part}Score": value for part, value in scores.items() if value is not None}
        data["knowledgeContext"] = context.described if context is not None else None
        return Grade(
            self.name,
            rule.status,
            f"{head}: {reason_of(answer)}",
            score=rule.score,
            details={"parts": rule.parts},
            data={key: value for key, value in data.items() if value is not None},
        )


__all__ = ["GeneralQuality"]
