"""One graded case as one trace, from real recorded sessions (no SDK, no collector: fast)."""

from __future__ import annotations

import json
from pathlib import Path

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase, GradeRecord
from copilot_eval.evidence.runtime_trace import RuntimeTrace
from copilot_eval.otel import CONTENT_ATTRIBUTES, CaseContext, case_trace
from copilot_eval.redaction import register_secret
from copilot_eval.targets.evidence import TargetResult, TargetTurn

DATA = Path(__file__).parents[1] / "capture" / "data"


def _played(name: str, *, content: bool = False):
    events = [json.loads(line) for line in (DATA / f"trace_{name}.events.jsonl").read_text().splitlines() if line]
    lines = (DATA / f"trace_{name}.trace.jsonl").read_text().splitlines()
    if content:  # as the runtime writes it with capture_trace_content
        edited = []
        for line in lines:
            span = json.loads(line)
            if span["name"].startswith("execute_tool"):
                span["attributes"]["gen_ai.tool.call.arguments"] = '{"order_id": 7}'
            edited.append(json.dumps(span))
        lines = edited
    trace = RuntimeTrace.from_lines(lines, content_captured=content)
    return result_from_events(events, facts=RunFacts(runtime_trace=trace, duration_ms=800.0))


def _graded(turn: int = 1, status: CaseStatus = CaseStatus.PASS) -> EvalCaseResult:
    grades = [
        GradeRecord(
            method="Exact match", status=status, score=100.0 if status is CaseStatus.PASS else 0.0, explanation="same"
        ),
        GradeRecord(
            method="Compare meaning", status=CaseStatus.ERROR, explanation="judge call failed", error_reason="timeout"
        ),
    ]
    return EvalCaseResult(
        conversation_number=3,
        turn=turn,
        passed=status is CaseStatus.PASS,
        status=status,
        grades=grades,
        actual_response="order 7 is fine",
        duration_ms=800.0,
    )


CASE = EvalTestCase(conversation_number=3, question="check the orders", response="order 7 is fine")
CONTEXT = CaseContext(test_set="orders", surface="orders-agent")


def test_the_case_span_holds_the_runtime_spans_of_its_prompt_with_fresh_ids():
    played = _played("tools")
    first = case_trace(CASE, _graded(1), played, turn_index=0, context=CONTEXT)
    second = case_trace(CASE, _graded(2), played, turn_index=1, context=CONTEXT)
    case, *children = second
    assert case.name == "copilot_eval.case 3.2" and case.parent_id is None
    assert {c.trace_id for c in second} == {case.trace_id} != {first[0].trace_id}
    names = [c.name for c in children]
    # the second prompt's invoke_agent and what it did; the session's start-up spans went with the first case
    assert names.count("invoke_agent") == 1 and "session.provisioning" not in names
    assert "session.provisioning" in [c.name for c in first]
    ids = {c.span_id for c in second}
    assert all(c.parent_id in ids for c in children)  # every parent is in this trace; the roots hang from the case
    assert [c.name for c in children if c.parent_id == case.span_id] == ["invoke_agent"]
    original = {s.span_id for s in played.runtime_trace.spans}
    assert not {f"{c.span_id:016x}" for c in children} & original  # renewed, so an export twice cannot collide
    assert case.start_ns == min(c.start_ns for c in children) and case.end_ns == max(c.end_ns for c in children)


def test_the_case_span_says_set_case_status_score_surface_and_session():
    played = _played("tools")
    case = case_trace(CASE, _graded(2, CaseStatus.FAIL), played, turn_index=1, context=CONTEXT)[0]
    attributes = case.attributes
    assert attributes["copilot_eval.test_set.name"] == "orders" and attributes["copilot_eval.case.key"] == "3.2"
    assert attributes["copilot_eval.case.status"] == "fail" and attributes["copilot_eval.case.score"] == 0.0
    assert attributes["copilot_eval.surface"] == attributes["gen_ai.agent.name"] == "orders-agent"
    assert attributes["gen_ai.conversation.id"] == played.session_id
    assert attributes["copilot_eval.usage.input_tokens"] == played.total_input_tokens
    assert "gen_ai.usage.input_tokens" not in attributes  # the chat spans carry those: no double count
    assert case.error is None  # a failed case is the agent's verdict, not a failed span


def test_one_evaluation_record_per_grader_verdict():
    events = case_trace(CASE, _graded(1), _played("tools"), turn_index=0, context=CONTEXT)[0].events
    assert [name for name, _, _ in events] == ["gen_ai.evaluation.result"] * 2
    exact, judge = (attributes for _, _, attributes in events)
    assert exact == {
        "gen_ai.evaluation.name": "Exact match",
        "gen_ai.evaluation.score.value": 100.0,
        "gen_ai.evaluation.score.label": "pass",
        "gen_ai.evaluation.explanation": "same",
    }
    assert judge["gen_ai.evaluation.score.label"] == "error" and judge["error.type"] == "timeout"
    assert "gen_ai.evaluation.score.value" not in judge  # no score given: none sent, never 0


def test_unknown_usage_is_left_out_never_sent_as_zero():
    played = _played("tools")
    for span in played.runtime_trace.spans:
        span.attributes.pop("gen_ai.usage.input_tokens", None)
    played.usage[0].input_tokens = None
    records = case_trace(CASE, _graded(1), played, turn_index=0, context=CONTEXT)
    assert "copilot_eval.usage.input_tokens" not in records[0].attributes
    assert not any("gen_ai.usage.input_tokens" in r.attributes for r in records)
    assert any(r.attributes.get("gen_ai.usage.output_tokens") for r in records)  # what is known still goes


def test_content_only_with_capture_content_and_always_redacted():
    secret = "orders-api-key-7f3a9c2b11"
    register_secret(secret, "ORDERS_KEY")
    played = _played("tools", content=True)
    graded = _graded(2).model_copy(update={"actual_response": f"the key is {secret}"})
    plain = case_trace(CASE, graded, played, turn_index=1, context=CONTEXT)
    assert not any(key in CONTENT_ATTRIBUTES for r in plain for key in r.attributes)
    assert "copilot_eval.case.answer" not in plain[0].attributes
    full = case_trace(CASE, graded, played, turn_index=1, context=CaseContext("orders", capture_content=True))
    assert full[0].attributes["copilot_eval.case.answer"] == "the key is [redacted:ORDERS_KEY]"
    assert full[0].attributes["copilot_eval.case.question"] == "check the orders"
    assert any("gen_ai.tool.call.arguments" in r.attributes for r in full)
    assert secret not in json.dumps([r.attributes for r in full])


def test_a_copilot_studio_target_exports_its_turns_the_same_way():
    evidence = TargetResult(
        target_type="directline",
        agent_name="Raybot",
        conversation_id="conv-1",
        success=True,
        turns=[
            TargetTurn(prompt="hi", answer="hello", duration_ms=120.0, latency_ms=80.0),
            TargetTurn(
                prompt="price?",
                answer=None,
                duration_ms=300.0,
                error="HTTP 500",
                error_code="InternalServerError",
                http_status=500,
            ),
        ],
    )
    case, turn = case_trace(CASE, _graded(2, CaseStatus.ERROR), evidence, turn_index=1, context=CONTEXT)
    assert turn.name == "invoke_agent Raybot" and turn.parent_id == case.span_id
    assert turn.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert turn.attributes["error.type"] == "InternalServerError" and turn.error == "HTTP 500"
    assert turn.end_ns - turn.start_ns == 300_000_000
    assert "copilot_eval.turn.prompt" not in turn.attributes
    assert case.attributes["gen_ai.conversation.id"] == "conv-1" and case.error is not None  # an errored case


def test_a_pytest_test_takes_every_prompt_of_every_run():
    played = _played("tools")
    records = case_trace(
        None, _graded(1), [played, _played("subagent")], turn_index=None, context=CONTEXT, key="t.py::test_x"
    )
    assert records[0].name == "copilot_eval.case t.py::test_x"
    assert sum(r.name == "invoke_agent" for r in records) == 3  # two prompts, then one
    assert "gen_ai.conversation.id" not in records[0].attributes  # two sessions: no one id for the case
