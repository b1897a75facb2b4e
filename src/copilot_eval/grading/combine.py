"""The one rule for a case's status, whoever played and graded the case, and the grading step of our runs.

``case_status`` decides the status of every case: one of our runs (through ``grade_case``, for a
run, a pytest test-set item and a regrade), a row of the Evaluate tab's results export and a test
case of the evaluation API (``platform_runs``). Each source only records facts (``CaseFacts``):
why no answer came, whether the case is still unfinished, the answer, the verdicts. The first
row of ``CASE_STATUS_RULES`` that holds decides, and nothing changes the status afterwards:

| row | when                                                  | status  |
|-----|-------------------------------------------------------|---------|
| 1   | the case was never played: a run budget (``--max-run-tokens`` ..., ``--max-judge-tokens`` ...) was reached before its conversation started | not_run |
| 2   | the agent spent more than its usage budget (``max_tokens``, ``max_premium_requests``, ``max_ai_credits``) | fail |
| 3   | the session or the platform failed where the answer belongs (no answer, an error code in its place, the evaluator got none) | error |
| 4   | the case has no outcome yet (still being evaluated)   | unknown |
| 5   | the answer is empty or blank                          | error   |
| 6   | an instruction file the ``instructions:`` grader names did not reach the model | error |
| 7   | no grader gave a verdict                              | unknown |
| 8   | a grader failed it                                    | fail    |
| 9   | a grader could not grade it                           | error   |
| 10  | a grader could not tell                               | unknown |
| 11  | otherwise: every grader passed it                     | pass    |

Rows 1-6 hold before any grader runs (``PRE_GRADING_RULES``): a judge is not paid to look at
nothing, and a platform failure says nothing about the agent. A case that was never played is
neither failed nor errored: it is listed, never graded, and outside the score. Spending more than allowed is a
verdict on the agent, whatever its answer was. A definite fail outweighs an error
(the agent got it wrong whatever else broke); an error is never a pass and never the agent's fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.grading.protocol import CaseEvidence, Grade, Grader

#: Which status wins when verdicts are combined, strongest first; PASS only when none of these is present.
STATUS_PRECEDENCE: tuple[CaseStatus, ...] = (CaseStatus.FAIL, CaseStatus.ERROR, CaseStatus.UNKNOWN)
#: What an empty answer is called (the same words as a grader that finds nothing to grade).
EMPTY_ANSWER = "the agent's answer is empty"


@dataclass(frozen=True)
class Verdict:
    """One grader's (or platform method's) verdict on a case: who gave it, what it says, and why."""

    method: str
    status: CaseStatus
    reason: str | None = None


@dataclass(frozen=True)
class CaseFacts:
    """What was recorded about one case, from any source; ``case_status`` decides from these alone.

    ``not_run``: why the case was never played (the run budget reached first). ``over_budget``: the
    usage budget the agent went past, and by how much. ``failure``: why no
    answer came (the session or the platform failed). ``unfinished``: why the case has no outcome
    yet. ``answer``: the text where the agent's answer belongs, ``None`` when the source does not
    hold it. ``ungraded``: how the source says that no grader gave a verdict.
    """

    failure: str | None = None
    not_run: str | None = None
    over_budget: str | None = None
    unfinished: str | None = None
    answer: str | None = None
    undelivered: str | None = None  # the named instruction files that never reached the model
    verdicts: Sequence[Verdict] = ()
    ungraded: str = "no grader ran"


def _any(status: CaseStatus) -> Callable[[CaseFacts], str | None]:
    def deciding(facts: CaseFacts) -> str | None:
        named = [v for v in facts.verdicts if v.status is status]
        return "; ".join(f"{v.method}: {v.reason or 'no reason given'}" for v in named) if named else None

    return deciding


@dataclass(frozen=True)
class Rule:
    """One row of the rule: its status, and the reason it gives when it holds for a case (``None`` when not)."""

    when: str
    status: CaseStatus
    reason: Callable[[CaseFacts], str | None] = field(repr=False)


#: The rows that hold whatever the graders would say: decided before any grader runs.
PRE_GRADING_RULES: tuple[Rule, ...] = (
    Rule("the case was never played: a run budget was reached first", CaseStatus.NOT_RUN, lambda f: f.not_run),
    Rule("the agent spent more than its usage budget", CaseStatus.FAIL, lambda f: f.over_budget),
    Rule("the session or the platform failed where the answer belongs", CaseStatus.ERROR, lambda f: f.failure),
    Rule("the case has no outcome yet", CaseStatus.UNKNOWN, lambda f: f.unfinished),
    Rule(
        "the answer is empty",
        CaseStatus.ERROR,
        lambda f: EMPTY_ANSWER if f.answer is not None and not f.answer.strip() else None,
    ),
    # An adherence grade of instructions the model never had measures nothing: not the agent's fault.
    Rule("a named instruction file did not reach the model", CaseStatus.ERROR, lambda f: f.undelivered),
)
#: The whole rule, first row that holds wins; when none holds the case passed.
CASE_STATUS_RULES: tuple[Rule, ...] = (
    *PRE_GRADING_RULES,
    Rule("no grader gave a verdict", CaseStatus.UNKNOWN, lambda f: None if f.verdicts else f.ungraded),
    *(Rule(f"a verdict is {status.value}", status, _any(status)) for status in STATUS_PRECEDENCE),
)


def _first(rules: Sequence[Rule], facts: CaseFacts) -> tuple[CaseStatus, str] | None:
    for rule in rules:
        if (reason := rule.reason(facts)) is not None:
            return rule.status, reason
    return None


def case_status(facts: CaseFacts) -> tuple[CaseStatus, str | None]:
    """The status of a case and, unless it passed, why: the first row of ``CASE_STATUS_RULES`` that holds."""
    return _first(CASE_STATUS_RULES, facts) or (CaseStatus.PASS, None)


def combined_status(statuses: Iterable[CaseStatus]) -> CaseStatus:
    """The one status of several (the cases of a conversation): the verdicts' precedence of the rule."""
    present = set(statuses)
    return next((status for status in STATUS_PRECEDENCE if status in present), CaseStatus.PASS)


def combine_grades(grades: Sequence[Grade]) -> tuple[CaseStatus, str | None]:
    """The case status of ``grades`` alone and, unless it passed, the reasons of the grades that decided it."""
    return case_status(CaseFacts(verdicts=[Verdict(g.method, g.status, g.reason) for g in grades]))


@dataclass(frozen=True)
class CaseVerdict:
    """What grading decided about one case: its status, the reason unless it passed, and the grades given."""

    status: CaseStatus
    reason: str | None
    grades: list[Grade] = field(default_factory=list)


async def _grade_one(grader: Grader, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
    # A grader that raises must not lose the run's other verdicts: its crash is its own error grade.
    try:
        return await grader.grade(case, evidence)
    except Exception as exc:
        method = getattr(grader, "name", type(grader).__name__)
        return Grade(method, CaseStatus.ERROR, f"grader crashed: {type(exc).__name__}: {exc}")


def graders_for(case: EvalTestCase, graders: Sequence[Grader]) -> list[Grader]:
    """The graders of one case: a grader that chooses per case (``graders_for``, a row's own method) gives its own."""
    chosen: list[Grader] = []
    for grader in graders:
        per_case = getattr(grader, "graders_for", None)
        chosen += per_case(case) if callable(per_case) else [grader]
    return chosen


async def grade_case(case: EvalTestCase, evidence: CaseEvidence, graders: Sequence[Grader]) -> CaseVerdict:
    """Grade one case of our own runs: the rule's first rows without a grader, else the graders' verdicts."""
    chosen = graders_for(case, graders)
    undelivered = next(
        (why for g in chosen if callable(check := getattr(g, "undelivered", None)) and (why := check(evidence))), None
    )
    facts = CaseFacts(
        failure=evidence.runtime_error,
        over_budget=evidence.over_budget,
        answer=evidence.answer,
        undelivered=undelivered,
    )
    if (early := _first(PRE_GRADING_RULES, facts)) is not None:
        return CaseVerdict(*early)
    grades = [await _grade_one(grader, case, evidence) for grader in chosen]
    verdicts = [Verdict(g.method, g.status, g.reason) for g in grades]
    status, reason = case_status(CaseFacts(failure=facts.failure, answer=facts.answer, verdicts=verdicts))
    return CaseVerdict(status, reason, grades)


__all__ = [
    "CASE_STATUS_RULES",
    "EMPTY_ANSWER",
    "PRE_GRADING_RULES",
    "STATUS_PRECEDENCE",
    "CaseFacts",
    "CaseVerdict",
    "Rule",
    "Verdict",
    "case_status",
    "combine_grades",
    "combined_status",
    "grade_case",
    "graders_for",
]
