"""Each case graded by the test method its own row names, with its own pass mark.

Sets in the per-row dialect (``Prompt,Expected response,Test Method Type,Passing Score``) and the
legacy template (``Testing method``) say per case how it is graded, as Copilot Studio grades it:
``CompareMeaning`` at 70 for one row, ``GeneralQuality`` for the next. ``RowMethods`` stands in
the run's grader list for all of them: ``graders_for(case)`` gives the grader the case's row names
(built once per method and pass mark), and the run's own graders (``--grader``) for a row that names
none. Keyword and capability methods take their terms from the row's Expected response, comma
separated, the way the platform's import does. ``grading.combine.grade_case`` asks for the graders
of each case, so the grading step stays the one it is for every other set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.test_methods import TestMethod, known_methods, test_method
from copilot_eval.grading.combine import combine_grades
from copilot_eval.grading.protocol import CaseEvidence, Grade, Grader
from copilot_eval.grading.spec import parse_grader_spec


class _NoTerms:
    """The error grade of a keyword or capability row whose Expected response names nothing to look for."""

    needs_reference = False

    def __init__(self, name: str, what: str) -> None:
        self.name, self.what = name, what

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """An error: the row gives nothing to check (never a fail of the agent)."""
        return Grade(self.name, CaseStatus.ERROR, f"the row's Expected response names no {self.what}")


def _terms(text: str) -> list[str]:
    return [term.strip() for term in text.split(",") if term.strip()]


class RowMethods:
    """The graders of a set whose rows name their own test method; rows naming none get ``defaults``."""

    name = "the rows' own test methods"
    needs_reference = False  # each row's grader says so for its own case

    def __init__(
        self, defaults: Sequence[Grader], *, judge: Any = None, pool: Any = None, judge_repeat: int = 1
    ) -> None:
        self.defaults = list(defaults)
        self.judge, self.pool, self.judge_repeat = judge, pool, judge_repeat
        self._built: dict[tuple[str, float | None, str], Grader] = {}

    def graders_for(self, case: EvalTestCase) -> list[Grader]:
        """The grader the case's row names, or the run's default graders when it names none."""
        method = test_method(case.testing_method)
        if method is None:
            return list(self.defaults)
        terms = case.response if method.name in ("KeywordMatch", "AllKeywordMatch", "CapabilityUse") else ""
        key = (method.name, case.passing_score, terms)
        if key not in self._built:
            self._built[key] = self._build(method, case.passing_score, terms)
        return [self._built[key]]

    def _build(self, method: TestMethod, pass_mark: float | None, terms: str) -> Grader:
        mark = "" if pass_mark is None else f":{pass_mark:g}"
        if method.name in ("KeywordMatch", "AllKeywordMatch"):
            if not _terms(terms):
                return _NoTerms("Keyword match", "keywords")
            mode = "all" if method.name == "AllKeywordMatch" else "any"
            spec = f"keywords:{mode}:{','.join(_terms(terms))}"
        elif method.name == "CapabilityUse":
            if not _terms(terms):
                return _NoTerms("Capability use", "tools, skills or subagents")
            spec = f"capability:{','.join(_terms(terms))}"
        else:
            spec = {
                "GeneralQuality": "general_quality",
                "CompareMeaning": f"compare_meaning{mark}",
                "TextSimilarity": f"similarity{mark}",
                "ExactMatch": "exact",
            }[method.name]
        return parse_grader_spec(spec, judge=self.judge, pool=self.pool, judge_repeat=self.judge_repeat)

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Grade ``case`` by its own graders (``grade_case`` asks ``graders_for`` instead; this serves direct use)."""
        graders = self.graders_for(case)
        grades = [await grader.grade(case, evidence) for grader in graders]
        if len(grades) == 1:
            return grades[0]
        status, reason = combine_grades(grades)
        return Grade(self.name, status, reason or "every grader passed", details={"grades": grades})

    def fit_problems(self, test_set: EvalTestSet) -> list[str]:
        """Rows naming a method no grader plays, or an LLM judge's method when the run has no judge."""
        problems = []
        unknown = [c for c in test_set.cases if c.testing_method and test_method(c.testing_method) is None]
        for case in unknown:
            problems.append(
                f"case {case.conversation_number}: test method {case.testing_method!r} is not one Copilot Studio "
                f"names (known: {known_methods()})"
            )
        if self.judge is None:
            judged: dict[str, list[int]] = {}
            for case in test_set.cases:
                method = test_method(case.testing_method)
                if method is not None and method.judge:
                    judged.setdefault(method.name, []).append(case.conversation_number)
            for name, numbers in judged.items():
                shown = ", ".join(str(n) for n in numbers[:10]) + (" ..." if len(numbers) > 10 else "")
                problems.append(
                    f"{len(numbers)} case{'s' if len(numbers) != 1 else ''} ({shown}) name {name}, an LLM judge's "
                    "method: give a judge agent file with --judge"
                )
        for grader in self.defaults:
            check = getattr(grader, "fit_problems", None)
            if callable(check):
                problems += check(test_set)
        return problems


def uses_row_methods(test_set: EvalTestSet) -> bool:
    """Whether any row of ``test_set`` names its own test method."""
    return any(case.testing_method for case in test_set.cases)


__all__ = ["RowMethods", "uses_row_methods"]
