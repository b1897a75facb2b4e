"""The two-stage rule that turns General quality's parts into one verdict, with its thresholds in one place.

Microsoft publishes the decision of the Quality Grader, which Foundry documents as the quality
evaluator of Copilot Studio's agent evaluation. The thresholds below are its numbers; the source
is ``QualityGraderEvaluator`` in the Azure SDK for Python
(github.com/Azure/azure-sdk-for-python, ``sdk/evaluation/azure-ai-evaluation/azure/ai/evaluation/
_evaluators/_quality_grader/_quality_grader.py``, read at commit a7d0c2b1; the evaluator is listed
among Foundry's built-in evaluators, learn.microsoft.com/azure/foundry/concepts/built-in-evaluators).
A part passes only when its score is strictly above its floor:

- stage 1, every answer: it must not abstain, relevance (1-5) must be above 2.5 and answer
  completeness (0-3) above 1.5;
- stage 2, only where the case had knowledge context (citations, knowledge search results, or the
  platform's own figures saying it retrieved some): groundedness (1-5) above 2.5 and context
  coverage (0-3) above 1.5.

Where the published evaluator counts a missing score as a failure, this rule keeps it apart: a
part the judge left unjudged ("NA") is never a pass, and it is not the agent's failure either, so
an answer that fails no part but has a required part unjudged is ``unknown``. An abstention left
unjudged (there was nothing to decline, e.g. a clarifying question) fails nothing, as there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from copilot_eval.evalsets import CaseStatus
from copilot_eval.evalsets.quality_parts import (
    ABSTENTION,
    COMPLETENESS,
    CONTEXT_COVERAGE,
    GROUNDEDNESS,
    NA,
    NO,
    QUALITY_PARTS,
    RELEVANCE,
    YES,
)

#: Relevance, 1-5: the answer fails at or below this.
RELEVANCE_FLOOR = 2.5
#: Answer completeness, 0-3: the answer fails at or below this.
COMPLETENESS_FLOOR = 1.5
#: Groundedness in the knowledge context, 1-5 (stage 2 only): the answer fails at or below this.
GROUNDEDNESS_FLOOR = 2.5
#: Context coverage, 0-3 (stage 2 only): the answer fails at or below this.
CONTEXT_COVERAGE_FLOOR = 1.5

#: Each scored part's scale and floor.
SCALES: dict[str, tuple[float, float, float]] = {
    RELEVANCE: (1, 5, RELEVANCE_FLOOR),
    COMPLETENESS: (0, 3, COMPLETENESS_FLOOR),
    GROUNDEDNESS: (1, 5, GROUNDEDNESS_FLOOR),
    CONTEXT_COVERAGE: (0, 3, CONTEXT_COVERAGE_FLOOR),
}


@dataclass(frozen=True)
class QualityScores:
    """What the judge said of one answer; ``None`` is a part it left unjudged."""

    relevance: float | None
    completeness: float | None
    abstention: bool | None
    groundedness: float | None = None
    context_coverage: float | None = None
    with_context: bool = False  # stage 2 applies


@dataclass(frozen=True)
class QualityVerdict:
    """The rule's verdict: status, the parts that failed or were not judged, and the parts as the platform names them."""

    status: CaseStatus
    failed: list[str] = field(default_factory=list)  # "relevance 2 (must be above 2.5)"
    unjudged: list[str] = field(default_factory=list)  # parts the rule needed and the judge left NA
    parts: dict[str, str] = field(default_factory=dict)  # relevance: Yes ... (NA where not judged)
    checks: int = 0
    held: int = 0

    @property
    def score(self) -> float:
        """The share of the rule's checks that held, 0-100."""
        return round(100.0 * self.held / self.checks, 2) if self.checks else 0.0


def _scored(name: str, value: float | None, failed: list[str], unjudged: list[str]) -> str:
    if value is None:
        unjudged.append(name)
        return NA
    floor = SCALES[name][2]
    if value <= floor:
        failed.append(f"{name} {value:g} (must be above {floor:g})")
        return NO
    return YES


def quality_verdict(scores: QualityScores) -> QualityVerdict:
    """The two-stage rule (module docstring) applied to one answer's scores."""
    failed: list[str] = []
    unjudged: list[str] = []
    parts = {
        RELEVANCE: _scored(RELEVANCE, scores.relevance, failed, unjudged),
        COMPLETENESS: _scored(COMPLETENESS, scores.completeness, failed, unjudged),
    }
    if scores.with_context:
        parts[GROUNDEDNESS] = _scored(GROUNDEDNESS, scores.groundedness, failed, unjudged)
        parts[CONTEXT_COVERAGE] = _scored(CONTEXT_COVERAGE, scores.context_coverage, failed, unjudged)
    else:
        parts[GROUNDEDNESS] = parts[CONTEXT_COVERAGE] = NA  # no knowledge context: stage 2 does not apply
    if scores.abstention is True:
        failed.append("the answer abstains")
    parts[ABSTENTION] = NA if scores.abstention is None else (YES if scores.abstention else NO)
    checks = 3 + (2 if scores.with_context else 0)
    held = checks - len(failed) - len(unjudged)
    status = CaseStatus.FAIL if failed else CaseStatus.UNKNOWN if unjudged else CaseStatus.PASS
    ordered = {part: parts[part] for part in QUALITY_PARTS}
    return QualityVerdict(status, failed, unjudged, ordered, checks, held)


__all__ = [
    "COMPLETENESS_FLOOR",
    "CONTEXT_COVERAGE_FLOOR",
    "GROUNDEDNESS_FLOOR",
    "RELEVANCE_FLOOR",
    "SCALES",
    "QualityScores",
    "QualityVerdict",
    "quality_verdict",
]
