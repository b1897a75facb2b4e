"""Request audit through the real runtime: one record per outgoing model request, from its body."""

from __future__ import annotations

import hashlib

import pytest

from copilot_eval import CopilotEval, run_copilot
from copilot_eval.runtime.requests.request_audit import RequestAuditError, audit_body, instructions_hash

from .helpers import Watched, scripted

TWO_TURNS = (
    {
        "turns": [
            {"tool_calls": [{"name": "get_balance", "arguments": {"account": "A-7"}}]},
            {"text": "Balance: {last_tool_result}"},
        ]
    },
)


def get_balance(account: str) -> str:
    """Return the balance of one account."""
    return f"{account}: 42.00 EUR"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.runtime
@pytest.mark.parametrize(
    ("wire_api", "transport"),
    [
        ("completions", "http"),
        ("responses", "http"),
        ("responses", "websockets"),
    ],
)
async def test_one_record_per_model_request_on_every_wire(wire_api: str, transport: str) -> None:
    model = Watched(scripted(*TWO_TURNS, wire_api=wire_api, transport=transport))
    agent = CopilotEval(
        model=model,
        tools=(get_balance,),
        audit_requests=True,
        reasoning_effort="high",
        instructions="Always answer in euros.",
    )
    result = await run_copilot(agent, "What is my balance?")
    assert result.success, result.error
    assert result.final_response == "Balance: A-7: 42.00 EUR"
    audit = result.request_audit
    assert audit is not None and len(audit) == len(model.calls) == 2
    for record in audit:
        assert record.model == "scripted-model"
        assert "get_balance" in record.tool_names and "create" in record.tool_names
        assert record.reasoning_effort == "high"
        assert record.image_count == 0 and record.image_details == []
        assert len(record.instructions_sha256) == 64
        assert record.wire_api == wire_api
    # the same session prompt both turns: the instruction hash is stable across requests
    assert audit[0].instructions_sha256 == audit[1].instructions_sha256
    assert audit[0].instructions_sha256 != sha("")
    if transport == "websockets":
        assert {r.transport for r in audit} == {"websocket"}
        assert audit[0].request_id == audit[1].request_id, "one connection, its id repeats"
    else:
        assert {r.transport for r in audit} == {"http"}
        assert audit[0].request_id != audit[1].request_id
    dumped = result.model_dump_json()
    assert "scripted-model-no-key" not in dumped, "headers (the API key) never reach the audit"


@pytest.mark.runtime
async def test_audit_off_means_none() -> None:
    result = await run_copilot(CopilotEval(model=scripted({"turns": [{"text": "hi"}]})), "hello")
    assert result.success and result.request_audit is None


@pytest.mark.runtime
async def test_unauditable_request_is_refused_before_it_is_sent() -> None:
    # An Anthropic-type provider makes the runtime POST .../messages: a shape the auditor does not know.
    inner = scripted({"turns": [{"text": "never"}]})
    model = Watched(inner, provider={"type": "anthropic", "base_url": "http://127.0.0.1:9", "api_key": "x-not-secret"})
    result = await run_copilot(CopilotEval(model=model, audit_requests=True, timeout_s=30), "hello")
    assert result.success is False
    assert result.stop_reason == "request_audit_error"
    assert "request audit refused" in (result.error or "")
    assert result.request_audit == []
    assert model.calls == [], "the refused request never reached the endpoint"


def test_chat_body_hash_joins_system_and_developer_text_in_order() -> None:
    body = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "one"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "hi"},
                    {"type": "image_url", "image_url": {"url": "data:x", "detail": "low"}},
                    {"type": "image_url", "image_url": {"url": "data:y"}},
                ],
            },
            {"role": "developer", "content": [{"type": "text", "text": "two"}, {"type": "text", "text": "three"}]},
        ],
        "tools": [{"type": "function", "function": {"name": "a"}}, {"type": "function", "function": {"name": "b"}}],
        "reasoning_effort": "low",
    }
    record = audit_body(body, wire_api="completions", transport="http", request_id="r1")
    assert record.instructions_sha256 == sha("one\n\ntwo\n\nthree")
    assert record.image_details == ["low", None] and record.image_count == 2
    assert record.tool_names == ["a", "b"] and record.reasoning_effort == "low"
    assert record.message_count == 3


def test_responses_body_puts_top_level_instructions_first() -> None:
    body = {
        "model": "m",
        "instructions": "top",
        "reasoning": {"effort": "medium"},
        "tools": [{"type": "function", "name": "x"}, {"type": "web_search"}],
        "input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "dev"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_image", "detail": "high"}]},
            {"type": "function_call_output", "call_id": "c", "output": [{"type": "input_image"}]},
        ],
    }
    record = audit_body(body, wire_api="responses", transport="websocket", request_id="conn")
    assert record.instructions_sha256 == sha("top\n\ndev")
    assert record.tool_names == ["x"] and record.reasoning_effort == "medium"
    assert record.image_details == ["high", None]
    assert record.message_count == 3, "input items, the tool output among them"


def test_no_instructions_hash_the_empty_string_and_no_effort_is_none() -> None:
    record = audit_body({"model": "m", "input": "hi"}, wire_api="responses", transport="http", request_id="r")
    assert record.instructions_sha256 == instructions_hash([]) == sha("")
    assert record.reasoning_effort is None


@pytest.mark.parametrize(
    "body",
    [
        [],
        {"messages": []},
        {"model": "m"},
        {"model": "m", "messages": "x"},
        {"model": "m", "messages": [], "tools": {}},
    ],
)
def test_bodies_that_cannot_be_validated_raise(body: object) -> None:
    with pytest.raises(RequestAuditError):
        audit_body(body, wire_api="completions", transport="http", request_id="r")


def _chat_body(*messages: dict, tools: list | None = None) -> dict:
    return {"model": "m", "messages": list(messages), "tools": tools or []}


def _seen(body: dict, wire_api: str = "completions") -> dict[str, bool] | None:
    record = audit_body(body, wire_api=wire_api, transport="http", request_id="r", markers=("CANARY-1",))  # type: ignore[arg-type]
    return record.markers


def test_a_marker_is_found_where_the_model_is_given_it() -> None:
    tool = {"type": "function", "function": {"name": "t", "description": "Run CANARY-1 first", "parameters": {}}}
    assert _seen(_chat_body({"role": "user", "content": "hi"}, tools=[tool])) == {"CANARY-1": True}
    assert _seen(_chat_body({"role": "tool", "tool_call_id": "c", "content": "a CANARY-1 b"})) == {"CANARY-1": True}
    parts = [{"type": "text", "text": "x"}, {"type": "text", "text": "CANARY-1"}]
    assert _seen(_chat_body({"role": "user", "content": parts})) == {"CANARY-1": True}
    responses = {"model": "m", "input": [{"type": "function_call_output", "call_id": "c", "output": "CANARY-1"}]}
    assert _seen(responses, "responses") == {"CANARY-1": True}
    assert _seen({"model": "m", "instructions": "CANARY-1", "input": []}, "responses") == {"CANARY-1": True}


def test_the_models_own_words_do_not_deliver_a_marker() -> None:
    # The model repeating a canary (in its text or in a call's arguments) is not the canary reaching it.
    said = {"role": "assistant", "content": "CANARY-1", "tool_calls": [{"id": "c", "type": "function",
            "function": {"name": "t", "arguments": '{"to": "CANARY-1"}'}}]}  # fmt: skip
    assert _seen(_chat_body({"role": "user", "content": "hi"}, said)) == {"CANARY-1": False}
    responses = {
        "model": "m",
        "input": [
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "CANARY-1"}]},
            {"type": "function_call", "call_id": "c", "name": "t", "arguments": '{"to": "CANARY-1"}'},
        ],
    }
    assert _seen(responses, "responses") == {"CANARY-1": False}


def test_without_markers_the_record_says_none_were_watched() -> None:
    record = audit_body(
        _chat_body({"role": "user", "content": "CANARY-1"}), wire_api="completions", transport="http", request_id="r"
    )
    assert record.markers is None


def test_model_was_sent_reads_the_records_and_says_unknown_where_it_cannot() -> None:
    from copilot_eval.evidence import CopilotResult
    from copilot_eval.evidence.audit import RequestAuditRecord

    def record(found: dict[str, bool] | None) -> RequestAuditRecord:
        return RequestAuditRecord(request_id="r", instructions_sha256=sha(""), markers=found)

    assert CopilotResult(request_audit=None).model_was_sent("A") is None  # no audit
    two = CopilotResult(request_audit=[record({"A": False}), record({"A": True})])
    assert two.model_was_sent("A") is True
    assert CopilotResult(request_audit=[record({"A": False})]).model_was_sent("A") is False
    assert two.model_was_sent("B") is None  # not watched
    assert CopilotResult(request_audit=[record(None)]).model_was_sent("A") is None
    # No request sent at all: a watched marker was not delivered, an unwatched one is unknown.
    nothing = CopilotResult(request_audit=[], configuration={"audit_markers": ["A"]})
    assert nothing.model_was_sent("A") is False and nothing.model_was_sent("B") is None


def test_audit_markers_need_the_audit_and_must_not_be_blank() -> None:
    with pytest.raises(ValueError, match="audit_markers needs audit_requests=True"):
        CopilotEval(audit_markers=("A",))
    with pytest.raises(ValueError, match=r"audit_markers.0: must not be blank"):
        CopilotEval(audit_requests=True, audit_markers=(" ",))
