"""The trajectory grader: did the agent take the expected steps in this case's turn.

Each case is one turn of a conversation; its steps are matched against the calls of that turn
only, read through the evidence protocol (``PlayedEvidence.observed_steps``): runtime agents show
their tool calls and subagents; Copilot Studio agents show the steps their orchestration reports
in the activities (topics, actions, knowledge searches), where the platform sends them. Where the
evidence says its steps are not visible the grade is ``error``: invisible is not absent.

A match that failed only because some call's outcome was never recorded is ``unknown``, not
``fail``: unknown is not success, and not the agent's failure either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalTestCase, EvalTestSet, turn_numbers
from copilot_eval.evidence.trajectory import ObservedCall, TrajectoryMatch, match_trajectory
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.grading.trajectory_file import TrajectoryExpectation, TrajectoryFile, read_trajectory_file


def _as_if_known(calls: Sequence[ObservedCall]) -> list[ObservedCall]:
    return [replace(call, succeeded=True) if call.succeeded is None else call for call in calls]


def _status(match: TrajectoryMatch, calls: Sequence[ObservedCall], expectation: TrajectoryExpectation) -> CaseStatus:
    if match.passed:
        return CaseStatus.PASS
    if any(call.succeeded is None for call in calls):
        hopeful = match_trajectory(expectation.steps, _as_if_known(calls), **expectation.options())
        if hopeful.passed:  # it fails only where an outcome is unknown
            return CaseStatus.UNKNOWN
    return CaseStatus.FAIL


class TrajectoryGrader:
    """Pass when the case's turn shows the steps its trajectory file expects (see docs/graders.md)."""

    needs_reference = False

    def __init__(self, expectations: TrajectoryFile, *, name: str = "Trajectory") -> None:
        self.expectations, self.name = expectations, name

    @classmethod
    def from_file(cls, path: str | Path, *, name: str = "Trajectory") -> TrajectoryGrader:
        """Read and check a trajectory file (TrajectoryFileError lists every problem)."""
        return cls(read_trajectory_file(path), name=name)

    def fit_problems(self, test_set: EvalTestSet) -> list[str]:
        """Problems between the file and ``test_set``: cases the set lacks, cases the file does not cover."""
        keys = [
            (case.conversation_number, turn)
            for case, turn in zip(test_set.cases, turn_numbers(test_set.cases), strict=True)
        ]
        return self.expectations.fit_problems(keys)

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Match this turn's calls against the expected steps."""
        prompt = evidence.turn_index + 1  # which prompt of the session answered this case
        turn = evidence.turn or prompt  # the case's turn, as the trajectory file names it
        expectation = self.expectations.expectation(case.conversation_number, turn)
        if expectation is None:
            why = (
                f"no expected steps for conversation {case.conversation_number} turn {turn} in {self.expectations.path}"
            )
            return Grade(self.name, CaseStatus.ERROR, why)
        calls = evidence.result.observed_steps(turn=prompt, subagent_calls=expectation.subagent_calls)
        if isinstance(calls, str):
            return Grade(self.name, CaseStatus.ERROR, calls)
        match = match_trajectory(expectation.steps, calls, **expectation.options())
        score = match.score
        threshold = expectation.threshold
        return Grade(
            self.name,
            _status(match, calls, expectation),
            match.reason,
            score=None if score is None else round(100.0 * score, 2),
            passing_score=None if threshold is None else 100.0 * threshold,
            details=trajectory_details(match),
        )


def trajectory_details(match: TrajectoryMatch) -> dict[str, Any]:
    """A match as plain data for a grade's details: mode, scores, pairs, problems, the calls seen."""
    return {
        "mode": match.mode.value,
        "precision": match.precision,
        "recall": match.recall,
        "f1": match.f1,
        "stepScores": list(match.step_scores),
        "matched": {str(step + 1): match.calls[call].position for step, call in sorted(match.pairs.items())},
        "problems": list(match.problems),
        "calls": [call.label() for call in match.calls],
    }


__all__ = ["TrajectoryGrader", "trajectory_details"]
