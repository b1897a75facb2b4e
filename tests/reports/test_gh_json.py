"""`--gh-json`: a prompt file's run in the structure `gh models eval --json` writes, with gh-models' rule in `passed`."""

from __future__ import annotations

import json
import textwrap

import jsonschema

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalRun, GhModelsVerdict, GradeRecord
from copilot_eval.evalsets.prompt_cases import load_prompt_file
from copilot_eval.reports.gh_json import gh_models_document, gh_models_line, write_gh_models_json

# gh-models' output structure (cmd/eval/eval.go: EvaluationSummary, TestResult, EvaluationResult, Summary),
# written as a JSON Schema: every field Go marshals is required, `details` is omitted when empty.
GH_MODELS_EVAL_JSON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "description", "model", "testResults", "summary"],
    "properties": {
        "name": {"type": "string"},
        "description": {"type": "string"},
        "model": {"type": "string"},
        "testResults": {
            "type": ["array", "null"],
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["testCase", "modelResponse", "evaluationResults"],
                "properties": {
                    "testCase": {"type": ["object", "null"]},
                    "modelResponse": {"type": "string"},
                    "evaluationResults": {
                        "type": ["array", "null"],
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["evaluatorName", "score", "passed"],
                            "properties": {
                                "evaluatorName": {"type": "string"},
                                "score": {"type": "number"},
                                "passed": {"type": "boolean"},
                                "details": {"type": "string", "minLength": 1},
                            },
                        },
                    },
                },
            },
        },
        "summary": {
            "type": "object",
            "additionalProperties": False,
            "required": ["totalTests", "passedTests", "failedTests", "passRate"],
            "properties": {
                "totalTests": {"type": "integer"},
                "passedTests": {"type": "integer"},
                "failedTests": {"type": "integer"},
                "passRate": {"type": "number"},
            },
        },
    },
}

PROMPT = """
    name: Greetings
    description: Says hello back
    model: openai/gpt-4o
    messages:
      - role: user
        content: "Reply to: {{input}}"
    testData:
      - input: hello
        expected: hi
        count: 3
      - input: bye
    evaluators:
      - name: polite
        string: {contains: "{{input}}"}
      - name: rated
        uses: github/fluency
"""


def grade(method: str, status: CaseStatus, gh: GhModelsVerdict | None) -> GradeRecord:
    return GradeRecord(method=method, status=status, explanation="why", gh_models=gh)


def result(number: int, status: CaseStatus, grades: list[GradeRecord], answer: str | None, **extra) -> EvalCaseResult:
    return EvalCaseResult(
        conversation_number=number,
        passed=status is CaseStatus.PASS,
        status=status,
        actual_response=answer,
        grades=grades,
        **extra,
    )


def test_the_document_has_gh_models_structure_and_rule(tmp_path):
    path = tmp_path / "greet.prompt.yml"
    path.write_text(textwrap.dedent(PROMPT), encoding="utf-8")
    test_set, problems, _ = load_prompt_file(path)
    assert problems == []
    two_stars = GhModelsVerdict(score=0.25, passed=True, details="LLM evaluation matched choice: '2'")
    results = [
        # Ours fails it (two stars of five); gh-models passes it (a score above 0).
        result(
            1,
            CaseStatus.FAIL,
            [
                grade("polite", CaseStatus.PASS, GhModelsVerdict(score=1, passed=True, details="x")),
                grade("rated", CaseStatus.FAIL, two_stars),
            ],
            "  hello there \n",
        ),
        # No answer: gh-models would have stopped the run; written as a failed test saying why.
        result(2, CaseStatus.ERROR, [], None, failure_reason="execution_error: HTTP 500"),
    ]
    run = EvalRun(test_set_name="Greetings", general_quality_percent=0, passed=0, failed=1, errored=1, results=results)
    document = gh_models_document(run, test_set)
    jsonschema.validate(document, GH_MODELS_EVAL_JSON)
    assert (document["name"], document["description"], document["model"]) == (
        "Greetings",
        "Says hello back",
        "openai/gpt-4o",
    )
    first, second = document["testResults"]
    assert first["testCase"] == {"input": "hello", "expected": "hi", "count": 3}  # the row, every key
    assert first["modelResponse"] == "hello there"  # trimmed, as gh-models trims the model's answer
    assert [e["passed"] for e in first["evaluationResults"]] == [True, True]
    assert first["evaluationResults"][1]["score"] == 0.25
    assert second["modelResponse"] == ""
    assert [e["passed"] for e in second["evaluationResults"]] == [False, False]
    assert "execution_error: HTTP 500" in second["evaluationResults"][0]["details"]
    assert document["summary"] == {"totalTests": 2, "passedTests": 1, "failedTests": 1, "passRate": 50.0}
    written = write_gh_models_json(run, test_set, tmp_path / "gh.json")
    assert json.loads(written.read_text(encoding="utf-8")) == document


def test_one_line_says_where_gh_models_rule_and_ours_differ():
    def case(number: int, status: CaseStatus, gh: bool | None) -> EvalCaseResult:
        return result(number, status, [], "x", case_key=f"row{number}", gh_models_passed=gh)

    run = EvalRun(
        test_set_name="t",
        general_quality_percent=50,
        passed=1,
        failed=1,
        errored=1,
        results=[case(1, CaseStatus.PASS, True), case(2, CaseStatus.FAIL, True), case(3, CaseStatus.ERROR, None)],
    )
    assert gh_models_line(run) == (
        "gh-models' own rule (an evaluator passes on any score above 0) passes 2 of 2 cases; it differs from "
        "ours on 1: row2"
    )
