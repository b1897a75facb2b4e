"""The grader protocol: (case, evidence) in, one Grade out. Small on purpose, so users add their own.

A grade has four outcomes. ``error`` means the case could not be graded (no answer, a failed
runtime, an empty reference, a judge that broke); it is never a pass and never the agent's fault.
``unknown`` means a grader looked and could not tell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from copilot_eval.evalsets import CaseStatus, EvalTestCase, EvalTestSet, GradeRecord, JudgeTally
from copilot_eval.evalsets.prompt_model import GhModelsVerdict
from copilot_eval.evidence.protocol import PlayedEvidence

#: The key of ``Grade.details`` holding a prompt-file evaluator's ``GhModelsVerdict`` (kept by judges' repeats too).
GH_MODELS_DETAIL = "ghModels"


@dataclass(frozen=True)
class CaseEvidence:
    """What the agent did for one case: its answer to this case's question and the session evidence.

    In a Conversation set several cases share one session (``result``, of whichever target played
    it: graders read it through ``PlayedEvidence``); ``answer`` is the reply to this case's own
    question, ``None`` when there was none.
    """

    answer: str | None
    result: PlayedEvidence
    turn_index: int = 0
    evidence_path: str | None = None
    # The case's 1-based turn among the rows sharing its conversationNumber (what names it in a run):
    # turn_index + 1 in a conversation, but a single-turn case repeating a number is turn 2 in a session of its own.
    turn: int | None = None
    # Grades recorded for this answer before (a regrade): a platform run's own metric figures, for instance.
    recorded_grades: tuple[GradeRecord, ...] = ()
    # The play's workspace after the agent (``copilot_eval.workspace.WorkspaceOutcome``), for the workspace
    # graders; ``None`` when the case was played without one.
    workspace: Any = None

    @property
    def over_budget(self) -> str | None:
        """The usage budget the session went past (its stop reason's words), or ``None``."""
        if self.result.stop_reason == "usage_budget_exceeded":
            return self.result.error or "usage budget exceeded"
        return None

    @property
    def runtime_error(self) -> str | None:
        """Why the session failed before answering this case, or ``None`` when it answered."""
        if self.answer is not None:
            return None
        if self.turn_index >= len(self.result.responses_per_prompt) and self.turn_index > 0:
            return f"not asked: the session ended at an earlier turn ({self.result.error or 'no error recorded'})"
        if self.result.error:
            return f"{self.result.stop_reason or 'execution_error'}: {self.result.error}"
        return "the agent produced no answer"


@dataclass(frozen=True)
class Grade:
    """One grader's verdict: status, optional score and pass mark, a one-line reason, extras."""

    method: str
    status: CaseStatus
    reason: str
    score: float | None = None
    passing_score: float | None = None
    details: dict[str, Any] = field(default_factory=dict)
    evidence_path: str | None = None
    judge: JudgeTally | None = None  # an LLM judge's calls, verdicts, agreement and cost
    # The grader's figures in the platform's names (General quality's parts: relevance: Yes ...).
    data: dict[str, Any] | None = None

    def to_record(self) -> GradeRecord:
        """This grade as the plain GradeRecord stored on an EvalCaseResult."""
        return GradeRecord(
            method=self.method,
            status=self.status,
            score=self.score,
            passing_score=self.passing_score,
            explanation=self.reason,
            evidence_path=self.evidence_path,
            judge=self.judge,
            data=self.data,
            gh_models=self.gh_models,
        )

    @property
    def gh_models(self) -> GhModelsVerdict | None:
        """gh-models' own verdict on this answer, for a prompt file's evaluator; ``None`` for any other grader."""
        verdict = self.details.get(GH_MODELS_DETAIL)
        return verdict if isinstance(verdict, GhModelsVerdict) else None


@runtime_checkable
class Grader(Protocol):
    """Anything with a ``name`` and an async ``grade(case, evidence)`` returning a Grade."""

    @property
    def name(self) -> str:
        """The grader's name in results and reports (read only: a frozen grader is one too)."""
        ...

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Grade one case from its evidence."""
        ...


#: The error reason of a grader that needs a reference, for a case that has none (optional on the platform).
NO_REFERENCE = "no reference answer for this case"


def needs_reference(grader: object) -> bool:
    """Whether ``grader`` compares with the case's reference answer (graders say so with ``needs_reference``)."""
    return bool(getattr(grader, "needs_reference", False))


def fit_problems(graders: Sequence[object], test_set: EvalTestSet) -> list[str]:
    """What the graders find wrong with ``test_set`` before a run (graders say so with ``fit_problems``)."""
    problems: list[str] = []
    for grader in graders:
        check = getattr(grader, "fit_problems", None)
        if callable(check):
            problems += check(test_set)
    return problems


def ungradable(
    method: str,
    case: EvalTestCase,
    evidence: CaseEvidence,
    *,
    needs_reference: bool = True,
    passing_score: float | None = None,
) -> Grade | None:
    """The ``error`` grade when a case cannot be graded at all; ``None`` when it can."""
    problem, answer = evidence.runtime_error, evidence.answer
    if problem is None and answer is not None and not answer.strip():  # no runtime error means an answer
        problem = "the agent's answer is empty"
    if problem is None and needs_reference and not case.response.strip():
        problem = NO_REFERENCE
    if problem is None:
        return None
    return Grade(method=method, status=CaseStatus.ERROR, reason=problem, passing_score=passing_score)


def passed_if(condition: bool) -> CaseStatus:
    """PASS when ``condition`` holds, else FAIL."""
    return CaseStatus.PASS if condition else CaseStatus.FAIL


__all__ = [
    "GH_MODELS_DETAIL",
    "NO_REFERENCE",
    "CaseEvidence",
    "Grade",
    "Grader",
    "fit_problems",
    "needs_reference",
    "passed_if",
    "ungradable",
]
