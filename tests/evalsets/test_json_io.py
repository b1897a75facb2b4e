"""JSON in and out with camelCase keys, and the shipped JSON Schemas."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from copilot_eval.evalsets import (
    EvalCaseResult,
    EvalRun,
    EvalSetReadError,
    GradeRecord,
    read_csv,
    read_run_json,
    read_test_set_json,
    run_from_json,
    test_set_from_json,
    to_json,
    write_json,
)
from copilot_eval.evalsets.schema_files import SCHEMA_DIR, SCHEMA_MODELS, load_schema, schema_text

EXAMPLE = Path(__file__).parents[2] / "examples" / "evalsets" / "knowledge.csv"


def _run() -> EvalRun:
    return EvalRun(
        test_set_name="knowledge",
        run_at="2026-06-07T12:47:00Z",
        tested_by="ci",
        agent_name="bike-helper",
        general_quality_percent=50,
        passed=1,
        failed=1,
        errored=1,
        duration_ms=31000,
        runtime_limitation="case 3 hit HTTP 500 in the evaluation runtime",
        confidence="CONFIRMED",
        evidence=["run-2026-06-07.json"],
        results=[
            EvalCaseResult(
                conversation_number=1,
                passed=True,
                actual_response="8 to 19",
                status="pass",
                grades=[GradeRecord(method="Compare meaning", status="pass", score=80, passing_score=50)],
            ),
            EvalCaseResult(conversation_number=2, passed=False, actual_response="no idea", failure_reason="abstained"),
            EvalCaseResult(
                conversation_number=3,
                passed=False,
                status="error",
                failure_reason="HTTP 500",
                repeat_index=0,
                evidence_path="evidence/3.json",
            ),
        ],
    )


def test_run_json_uses_the_platform_key_names():
    document = json.loads(to_json(_run()))
    for key in ("testSetName", "runAt", "testedBy", "generalQualityPercent", "runtimeLimitation", "agentName"):
        assert key in document
    first = document["results"][0]
    assert {"conversationNumber", "actualResponse", "passed"} <= set(first)
    assert document["results"][1]["failureReason"] == "abstained"
    assert "notGraded" not in document  # unknown stays absent, never 0


def test_run_round_trips_through_json():
    run = _run()
    assert run_from_json(to_json(run)) == run


def test_test_set_round_trips_through_json_files(tmp_path):
    test_set = read_csv(EXAMPLE)
    path = tmp_path / "knowledge.json"
    write_json(test_set, path)
    assert read_test_set_json(path) == test_set
    assert json.loads(path.read_text(encoding="utf-8"))["cases"][0]["conversationNumber"] == 1


def test_bad_json_names_every_bad_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"name": "x", "dataType": "Chat", "cases": [{"conversationNumber": "one", "response": "r"}]})
    )
    with pytest.raises(EvalSetReadError) as caught:
        read_test_set_json(path)
    problems = caught.value.problems
    assert caught.value.path == path
    assert any(p.startswith("dataType: ") for p in problems)
    assert any(p.startswith("cases[0].conversationNumber: ") for p in problems)
    assert "cases[0].question: Field required" in problems  # a reference is optional, a question is not


def test_invalid_json_syntax_is_reported():
    with pytest.raises(EvalSetReadError) as caught:
        test_set_from_json('{"name": ')
    assert caught.value.problems[0].startswith("not valid JSON")


@pytest.mark.parametrize("file_name", sorted(SCHEMA_MODELS))
def test_shipped_schema_equals_the_generated_one(file_name):
    shipped = (SCHEMA_DIR / file_name).read_text(encoding="utf-8")
    assert shipped == schema_text(file_name), "run: python -m copilot_eval.evalsets.schema_files"


def test_examples_validate_against_the_shipped_schemas():
    jsonschema.validate(json.loads(to_json(read_csv(EXAMPLE))), load_schema("eval-test-set.schema.json"))
    jsonschema.validate(json.loads(to_json(_run())), load_schema("eval-run.schema.json"))


def test_schema_rejects_what_the_model_rejects():
    bad = {"name": "x", "cases": [{"conversationNumber": 1, "question": "q", "reponse": "typo"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, load_schema("eval-test-set.schema.json"))


def test_run_json_file(tmp_path):
    path = tmp_path / "run.json"
    write_json(_run(), path)
    assert read_run_json(path) == _run()
