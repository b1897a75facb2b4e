"""MCP result text: display text plus a structured part that must agree with it."""

from __future__ import annotations

from event_factory import one_call_session, tool_done, tool_start

from copilot_eval.capture import result_from_events

CALL = ("m1", "ledger-lookup_owner", {"account": "A1"})


def mcp_call(result: dict) -> tuple:
    events = one_call_session(tool_start("m1", CALL[1], CALL[2], mcpServerName="ledger"),
                              tool_done("m1", result=result), call=CALL)
    outcome = result_from_events(events)
    return outcome.all_tool_calls[0], [e.kind for e in outcome.capture_errors], outcome


def test_agreeing_parts_are_parsed():
    call, errors, _ = mcp_call({"content": 'Ada\n\n{"result":"Ada"}', "contents": [{"type": "text", "text": "Ada"}],
                                "structuredContent": {"result": "Ada"}})
    assert call.structured_result == "Ada" and errors == []


def test_disagreeing_parts_are_a_mismatch_and_text_is_kept():
    text = 'Ada\n\n{"result":"Bob"}'
    call, errors, result = mcp_call({"content": text, "contents": [{"type": "text", "text": "Ada"}]})
    assert call.result == text and errors == ["result_mismatch"]
    assert result.success is True and not result.evidence_complete


def test_unexplained_trailing_data_is_kept_and_flagged():
    text = "Ada\n\nsome stray trailer"
    call, errors, _ = mcp_call({"content": text, "contents": [{"type": "text", "text": "Ada"}]})
    assert call.result == text and call.structured_result is None and errors == ["result_mismatch"]


def test_structured_content_that_differs_from_the_text_part_is_flagged():
    call, errors, _ = mcp_call({"content": 'Ada\n\n{"result":"Ada"}', "contents": [{"type": "text", "text": "Ada"}],
                                "structuredContent": {"result": "Eve"}})
    assert errors == ["result_mismatch"]


def test_missing_payload_is_not_invented():
    call, errors, _ = mcp_call({"content": "Ada", "contents": [{"type": "text", "text": "Ada"}]})
    assert call.structured_result is None and call.result == "Ada" and errors == []


def test_structured_dict_payload_agrees_with_json_display():
    call, errors, _ = mcp_call({"content": '{"a": 1}\n\n{"result":{"a":1}}', "contents": [{"type": "text", "text": '{"a": 1}'}]})
    assert call.structured_result == {"a": 1} and errors == []


def test_non_mcp_tool_text_is_never_parsed():
    events = one_call_session(tool_start("c1", "get_balance", {}), tool_done("c1", 'x\n\n{"result":"y"}'))
    call = result_from_events(events).all_tool_calls[0]
    assert call.structured_result is None and call.result == 'x\n\n{"result":"y"}'
