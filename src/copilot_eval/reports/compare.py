"""Run versus run: which cases improved, regressed, stayed, changed, appeared or disappeared.

Cases are matched by conversation number, turn and repeat. A move to ``pass`` is an improvement and a
move away from it a regression. A move between ``fail``, ``error`` and ``unknown`` is reported as
*changed*: one side was not graded, so it says nothing about the agent getting better or worse
(an error is never an agent failure), yet it is a status change a reviewer must see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult, EvalRun

KINDS: tuple[str, ...] = ("regressed", "improved", "changed", "new", "removed", "unchanged")
"""Every kind of case change, most urgent first (the order reports list them in)."""


def _scores(result: EvalCaseResult | None) -> dict[str, float]:
    if result is None:
        return {}
    return {grade.method: grade.score for grade in result.grades if grade.score is not None}


@dataclass(frozen=True)
class CaseChange:
    """One case (and repeat) in the baseline and the candidate run."""

    conversation_number: int
    repeat_index: int
    before: CaseStatus | None
    after: CaseStatus | None
    turn: int = 1
    question: str | None = None
    before_scores: dict[str, float] = field(default_factory=dict)
    after_scores: dict[str, float] = field(default_factory=dict)
    after_reason: str | None = None

    @property
    def kind(self) -> str:
        """improved, regressed, changed (between not-passing statuses), unchanged, new or removed."""
        if self.before is None:
            return "new"
        if self.after is None:
            return "removed"
        if self.before is self.after:
            return "unchanged"
        if self.after is CaseStatus.PASS:
            return "improved"
        if self.before is CaseStatus.PASS:
            return "regressed"
        return "changed"

    @property
    def score_deltas(self) -> dict[str, float]:
        """Per grader scoring in both runs: candidate score minus baseline score."""
        return {
            method: round(self.after_scores[method] - score, 4)
            for method, score in self.before_scores.items()
            if method in self.after_scores
        }

    @property
    def label(self) -> str:
        """``case N``, with ``turn T`` after the first turn and ``rK`` for later repeats."""
        turn = f" turn {self.turn}" if self.turn > 1 else ""
        return f"case {self.conversation_number}{turn}" + (f" r{self.repeat_index}" if self.repeat_index else "")


@dataclass(frozen=True)
class RunComparison:
    """A baseline run, a candidate run, and the change of every case between them."""

    baseline: EvalRun
    candidate: EvalRun
    changes: list[CaseChange]

    @property
    def score_delta(self) -> float | None:
        """Candidate score minus baseline score, in percentage points (each over its graded cases);
        ``None`` when either run has no score because nothing in it could be graded."""
        if not (self.candidate.graded and self.baseline.graded):
            return None
        return round(self.candidate.general_quality_percent - self.baseline.general_quality_percent, 2)

    def of_kind(self, kind: str) -> list[CaseChange]:
        """The changes of one kind, in case order."""
        return [change for change in self.changes if change.kind == kind]

    def counts(self) -> dict[str, int]:
        """How many cases of each kind, every kind present (zero when none)."""
        return {kind: len(self.of_kind(kind)) for kind in KINDS}


def compare_runs(
    baseline: EvalRun, candidate: EvalRun, *, questions: dict[tuple[int, int], str] | None = None
) -> RunComparison:
    """Match the cases of two runs and classify each change; ``questions`` names cases by (number, turn)."""

    def keyed(run: EvalRun) -> dict[tuple[int, int, int], EvalCaseResult]:
        return {(r.conversation_number, r.turn or 1, r.repeat_index or 0): r for r in run.results or []}

    before, after = keyed(baseline), keyed(candidate)
    changes = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        changes.append(
            CaseChange(
                conversation_number=key[0],
                turn=key[1],
                repeat_index=key[2],
                before=old.effective_status if old else None,
                after=new.effective_status if new else None,
                question=(questions or {}).get((key[0], key[1])),
                before_scores=_scores(old),
                after_scores=_scores(new),
                after_reason=new.failure_reason if new else None,
            )
        )
    return RunComparison(baseline=baseline, candidate=candidate, changes=changes)


__all__ = ["KINDS", "CaseChange", "RunComparison", "compare_runs"]
