"""The knowledge an answer could be grounded in: what General quality's second stage judges against.

A case has knowledge context when the record shows the agent drew on knowledge for that answer:
the citations of its turn, what its turn's knowledge searches found (a Copilot Studio agent's
``UniversalSearchToolTraceData``), or, for a run Copilot Studio graded, the platform's own General
quality figures saying it judged groundedness (not "NA"): the platform retrieved knowledge even
when the record keeps none of its text. Without any of these, groundedness and context coverage
do not apply (as on the platform). The evidence is read through what it exposes
(``turns[i].citations``, ``.knowledge_results``, ``.knowledge_searched``), whichever target played it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from copilot_eval.evalsets.quality_parts import GROUNDEDNESS, NA, general_quality_grade, quality_parts
from copilot_eval.grading.protocol import CaseEvidence

CITATIONS, KNOWLEDGE_SEARCH, PLATFORM = "citations", "knowledge search", "platform"


@dataclass(frozen=True)
class KnowledgeContext:
    """Where the context was seen and the passages of it the record holds (maybe none: the platform's case)."""

    sources: list[str]
    passages: list[str] = field(default_factory=list)

    @property
    def described(self) -> str:
        """``citations, knowledge search`` for reports."""
        return ", ".join(self.sources)


def _turn(evidence: CaseEvidence) -> Any:
    turns = getattr(evidence.result, "turns", None)
    if not isinstance(turns, list) or not 0 <= evidence.turn_index < len(turns):
        return None
    turn = turns[evidence.turn_index]
    return turn if hasattr(turn, "citations") else None  # a runtime session's turns carry no citations


def _citation_text(citation: Any) -> str:
    """``title (url): abstract``, with what the citation has of these."""
    title, url, abstract = (getattr(citation, name, None) for name in ("title", "url", "abstract"))
    head = " ".join(part for part in (title, f"({url})" if url else None) if part)
    return f"{head}: {abstract}" if head and abstract else (abstract or head)


def knowledge_context(evidence: CaseEvidence) -> KnowledgeContext | None:
    """The knowledge context of this case's answer, or ``None`` when the record shows none."""
    sources: list[str] = []
    passages: list[str] = []
    turn = _turn(evidence)
    if turn is not None:
        cited = [text for text in (_citation_text(c) for c in turn.citations) if text]
        if turn.citations:
            sources.append(CITATIONS)
            passages += cited
        found = list(getattr(turn, "knowledge_results", []) or [])
        if found or getattr(turn, "knowledge_searched", False):
            sources.append(KNOWLEDGE_SEARCH)
            passages += [p for p in found if p not in passages]
    platform = general_quality_grade(list(evidence.recorded_grades))
    if platform is not None and quality_parts(platform).get(GROUNDEDNESS, NA) != NA:
        sources.append(PLATFORM)
    return KnowledgeContext(sources, passages) if sources else None


__all__ = ["CITATIONS", "KNOWLEDGE_SEARCH", "PLATFORM", "KnowledgeContext", "knowledge_context"]
