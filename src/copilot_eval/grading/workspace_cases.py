"""A case's own workspace graders (its ``workspace.graders`` in the test set), chosen per case.

``CaseWorkspaceGraders`` is one grader in a run's list that gives each case the graders its
workspace names (``graders_for``), built once per spec; ``case_grader_problems`` checks every case's
specs before the run, naming the case.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalTestCase, EvalTestSet
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.grading.spec import GraderSpecError, parse_grader_spec


def _case_label(case: EvalTestCase) -> str:
    return f"case {case.case_key or case.conversation_number}"


class CaseWorkspaceGraders:
    """Gives each case the workspace graders its test-set entry names; cases naming none get none from it."""

    name = "case_workspace"

    def __init__(self) -> None:
        self._built: dict[str, Any] = {}

    def graders_for(self, case: EvalTestCase) -> list[Any]:
        """The graders of ``case``'s workspace, built once per spec."""
        specs = case.workspace.graders if case.workspace is not None else []
        for spec in specs:
            if spec not in self._built:
                self._built[spec] = parse_grader_spec(spec, option=f"{_case_label(case)}: workspace.graders")
        return [self._built[spec] for spec in specs]

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Not called when ``graders_for`` is used; an unknown verdict if it is."""
        return Grade(self.name, CaseStatus.UNKNOWN, "grades through graders_for")


def case_grader_problems(test_set: EvalTestSet) -> list[str]:
    """Every case grader spec that cannot be built, naming its case."""
    problems = []
    for case in test_set.cases:
        for spec in case.workspace.graders if case.workspace is not None else []:
            try:
                parse_grader_spec(spec, option=f"{_case_label(case)}: workspace.graders")
            except GraderSpecError as exc:
                problems.append(str(exc))
    return problems


def has_case_graders(test_set: EvalTestSet) -> bool:
    """Whether any case names workspace graders of its own."""
    return any(case.workspace is not None and case.workspace.graders for case in test_set.cases)


__all__ = ["CaseWorkspaceGraders", "case_grader_problems", "has_case_graders"]
