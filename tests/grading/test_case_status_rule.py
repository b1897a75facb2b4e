"""One rule for a case's status, whoever played and graded the case.

The same facts reach the rule three ways: our own run (a Copilot Studio target's reply, graded by
our graders), a row of the Evaluate tab's results export (``analyze``), and a test case of the
evaluation API with the export's answer joined (``studio-eval``). Each row of the first table is
one edge case; all three must give the same status. The second table holds the facts only the
evaluation API records (a test case's state, its evaluator's own error) and the row of the rule
each one meets.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from copilot_eval.evalsets import CaseStatus, EvalTestCase, ExportedResult
from copilot_eval.grading.combine import CASE_STATUS_RULES, grade_case
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.platform_runs import run_from_export
from copilot_eval.platform_runs.studio import case_result
from copilot_eval.studio_eval import StudioCaseResult
from copilot_eval.targets.activities import fill_turn
from copilot_eval.targets.evidence import TargetResult, TargetTurn
from copilot_eval.testing import case_result as api_case
from copilot_eval.testing import metric_result

QUESTION, REFERENCE = "Do I need a deposit?", "150 euros per bike."
ANSWER = "Yes, 150 euros per bike."
CODE = "Error code: SystemError. Something went wrong."
WORDS = {CaseStatus.PASS: "Pass", CaseStatus.FAIL: "Fail", CaseStatus.ERROR: "Error", CaseStatus.UNKNOWN: "Unknown"}
P, F, E, U = CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR, CaseStatus.UNKNOWN

# (edge case, the answer where the agent's answer belongs, each method's verdict, the one status)
EDGE_CASES = [
    ("every method passes", ANSWER, [P, P], P),
    ("a fail outweighs an error", ANSWER, [F, E], F),
    ("an error outweighs an unknown", ANSWER, [E, U], E),
    ("an unknown outweighs a pass", ANSWER, [U, P], U),
    ("the answer is a platform error code, the methods pass", CODE, [P], E),
    ("the answer is a platform error code, a method cannot tell", CODE, [U], E),
    ("the answer is a platform error code, no method ran", CODE, [], E),
    ("the answer is empty, the methods pass", "", [P], E),
    ("the answer is blank, a method fails it", "   ", [F], E),
    ("answered, but no method gave a verdict", ANSWER, [], U),
]
IDS = [row[0] for row in EDGE_CASES]


class Says:
    """A grader that gives one status to whatever it is shown (as a platform method does)."""

    def __init__(self, status: CaseStatus, name: str) -> None:
        self.status, self.name, self.asked = status, name, 0

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        self.asked += 1
        return Grade(self.name, self.status, f"said {self.status.value}")


async def our_run(answer: str, verdicts: list[CaseStatus]) -> CaseStatus:
    # The target's reply recorded as a Direct Line turn records it, then our grading step.
    reply = [{"type": "message", "text": answer}]
    turn = fill_turn(TargetTurn(prompt=QUESTION), reply, typing_observable=False)
    result = TargetResult(target_type="directline", turns=[turn], error=turn.error, success=turn.error is None)
    evidence = CaseEvidence(answer=turn.answer, result=result)
    graders = [Says(status, f"method {n}") for n, status in enumerate(verdicts, start=1)]
    case = EvalTestCase(conversation_number=1, question=QUESTION, response=REFERENCE)
    return (await grade_case(case, evidence, graders)).status


def exported(answer: str, verdicts: list[CaseStatus], folder: Path) -> CaseStatus:
    path = folder / "results.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        groups = max(len(verdicts), 1)
        writer.writerow(
            ["question", "expectedResponse", "actualResponse"]
            + [
                f"{c}_{i}"
                for i in range(1, groups + 1)
                for c in ("testMethodType", "result", "passingScore", "explanation")
            ]
        )
        cells = [[f"Method{i}", WORDS[s], "", f"said {s.value}"] for i, s in enumerate(verdicts, start=1)]
        cells += [["", "", "", ""]] * (groups - len(verdicts))
        writer.writerow([QUESTION, REFERENCE, answer] + [cell for group in cells for cell in group])
    run, _ = run_from_export(path)
    (only,) = run.results or []
    return only.status


def evaluation_api(answer: str, verdicts: list[CaseStatus]) -> CaseStatus:
    metrics = [metric_result(f"Method{i}", WORDS[s], f"said {s.value}") for i, s in enumerate(verdicts, start=1)]
    case = StudioCaseResult.from_json(api_case(*metrics))
    row = ExportedResult(line=2, question=QUESTION, expected_response=REFERENCE, actual_response=answer)
    return case_result(1, case, row).status


@pytest.mark.parametrize(("edge", "answer", "verdicts", "expected"), EDGE_CASES, ids=IDS)
async def test_our_runs_exports_and_api_runs_give_one_status_for_the_same_facts(
    edge, answer, verdicts, expected, tmp_path
):
    statuses = {
        "our run": await our_run(answer, verdicts),
        "Evaluate-tab export": exported(answer, verdicts, tmp_path),
    }
    if verdicts:  # a finished API test case always carries its metrics: none is the platform's failure (below)
        statuses["evaluation API"] = evaluation_api(answer, verdicts)
    assert statuses == dict.fromkeys(statuses, expected), edge


NO_ANSWER = "AgentResponseIsNullOrEmpty"
# (the API's facts, the joined answer, the status, words the reason must hold)
API_FACTS = [
    ({"state": "Error", "metrics": [("Fail", None)]}, ANSWER, E, "ended in state Error"),
    ({"state": "Cancelled", "metrics": []}, None, E, "cancelled before it was evaluated"),
    ({"state": "Running", "metrics": []}, None, U, "still running when the run was read"),
    ({"state": "Completed", "metrics": []}, ANSWER, E, "returned no metric results"),
    ({"state": "Completed", "metrics": [("Fail", None), ("Error", NO_ANSWER)]}, ANSWER, E, NO_ANSWER),
    ({"state": "Running", "metrics": []}, CODE, E, "platform error code SystemError in the exported answer"),
    ({"state": "Completed", "metrics": [("Pass", None), ("Fail", "ModelError")]}, None, E, "ModelError"),
    ({"state": "Completed", "metrics": [("Pass", None)]}, None, P, None),  # no export joined: the text is unknown
]


@pytest.mark.parametrize(("facts", "answer", "expected", "words"), API_FACTS)
def test_what_only_the_evaluation_api_records_meets_its_row_of_the_one_rule(facts, answer, expected, words):
    metrics = [metric_result(f"Method{i}", s, "as recorded", error=e) for i, (s, e) in enumerate(facts["metrics"], 1)]
    case = StudioCaseResult.from_json(api_case(*metrics, state=facts["state"]))
    row = None if answer is None else ExportedResult(2, QUESTION, REFERENCE, answer)
    result = case_result(1, case, row)
    assert result.status is expected
    assert (result.failure_reason is None) if words is None else (words in (result.failure_reason or ""))


async def test_an_empty_answer_is_an_error_before_any_grader_is_asked():
    grader = Says(CaseStatus.PASS, "lenient")
    case = EvalTestCase(conversation_number=1, question=QUESTION, response=REFERENCE)
    evidence = CaseEvidence(answer=" \n", result=TargetResult(target_type="directline", success=True))
    verdict = await grade_case(case, evidence, [grader])
    assert (verdict.status, verdict.reason, verdict.grades, grader.asked) == (E, "the agent's answer is empty", [], 0)


def test_the_documented_table_is_the_rule_in_its_order():
    docs = Path(__file__).parents[2] / "docs" / "evaluation-runs.md"
    section = docs.read_text(encoding="utf-8").split("## Statuses, and what the score means", 1)[1]
    section = section.split("\n## ", 1)[0]  # this section's table only (the exit codes' table is further down)
    rows = [line for line in section.splitlines() if line.startswith("| ") and line[2].isdigit()]
    documented = [line.rsplit("|", 2)[1].strip().strip("`") for line in rows]
    assert documented == [rule.status.value for rule in CASE_STATUS_RULES] + ["pass"]


@pytest.mark.parametrize("answer", [None, ANSWER], ids=["no answer", "answered"])
async def test_a_case_over_its_usage_budget_fails_with_the_budget_as_its_reason(answer):
    from copilot_eval import CopilotResult

    budget = "usage budget exceeded: max_tokens=800, used 1000 tokens (input plus output over 2 model calls)"
    grader = Says(CaseStatus.PASS, "lenient")
    case = EvalTestCase(conversation_number=1, question=QUESTION, response=REFERENCE)
    over = CopilotResult(success=False, stop_reason="usage_budget_exceeded", error=budget)
    verdict = await grade_case(case, CaseEvidence(answer=answer, result=over), [grader])
    assert (verdict.status, verdict.reason, grader.asked) == (F, budget, 0), "a verdict on the agent, not an error"
    timed_out = CopilotResult(success=False, stop_reason="timeout", error="timed out after 5 s")
    verdict = await grade_case(case, CaseEvidence(answer=None, result=timed_out), [grader])
    assert verdict.status is E, "other stops stay errors"
