"""The knowledge an answer could be grounded in: what General quality's second stage judges against.

A case has knowledge context when the record shows the agent drew on knowledge for that answer:
what its evidence shows of the turn (``PlayedEvidence.knowledge_seen``: citations, what a Copilot
Studio agent's knowledge searches found), or, for a run Copilot Studio graded, the platform's own
General quality figures saying it judged groundedness (not "NA"): the platform retrieved
knowledge even when the record keeps none of its text. Without any of these, groundedness and
context coverage do not apply (as on the platform).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from copilot_eval.evalsets.quality_parts import GROUNDEDNESS, NA, general_quality_grade, quality_parts
from copilot_eval.grading.protocol import CaseEvidence

PLATFORM = "platform"


@dataclass(frozen=True)
class KnowledgeContext:
    """Where the context was seen and the passages of it the record holds (maybe none: the platform's case)."""

    sources: list[str]
    passages: list[str] = field(default_factory=list)

    @property
    def described(self) -> str:
        """``citations, knowledge search`` for reports."""
        return ", ".join(self.sources)


def knowledge_context(evidence: CaseEvidence) -> KnowledgeContext | None:
    """The knowledge context of this case's answer, or ``None`` when the record shows none."""
    seen = evidence.result.knowledge_seen(turn=evidence.turn_index + 1)
    sources, passages = list(seen.sources), list(seen.passages)
    platform = general_quality_grade(list(evidence.recorded_grades))
    if platform is not None and quality_parts(platform).get(GROUNDEDNESS, NA) != NA:
        sources.append(PLATFORM)
    return KnowledgeContext(sources, passages) if sources else None


__all__ = ["PLATFORM", "KnowledgeContext", "knowledge_context"]
