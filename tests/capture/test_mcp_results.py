"""MCP result text: display text plus a structured part that must agree with it."""

from __future__ import annotations

import json

import pytest

from copilot_eval.capture import result_from_events
from tests.capture.event_factory import one_call_session, tool_done, tool_start

CALL = ("m1", "ledger-lookup_owner", {"account": "A1"})


def mcp_call(result: dict) -> tuple:
    events = one_call_session(
        tool_start("m1", CALL[1], CALL[2], mcpServerName="ledger"), tool_done("m1", result=result), call=CALL
    )
    outcome = result_from_events(events)
    return outcome.all_tool_calls[0], [e.kind for e in outcome.capture_errors], outcome


def test_agreeing_parts_are_parsed():
    call, errors, _ = mcp_call(
        {
            "content": 'Ada\n\n{"result":"Ada"}',
            "contents": [{"type": "text", "text": "Ada"}],
            "structuredContent": {"result": "Ada"},
        }
    )
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
    _call, errors, _ = mcp_call(
        {
            "content": 'Ada\n\n{"result":"Ada"}',
            "contents": [{"type": "text", "text": "Ada"}],
            "structuredContent": {"result": "Eve"},
        }
    )
    assert errors == ["result_mismatch"]


def test_missing_payload_is_not_invented():
    call, errors, _ = mcp_call({"content": "Ada", "contents": [{"type": "text", "text": "Ada"}]})
    assert call.structured_result is None and call.result == "Ada" and errors == []


def test_structured_dict_payload_agrees_with_json_display():
    call, errors, _ = mcp_call(
        {"content": '{"a": 1}\n\n{"result":{"a":1}}', "contents": [{"type": "text", "text": '{"a": 1}'}]}
    )
    assert call.structured_result == {"a": 1} and errors == []


def test_non_mcp_tool_text_is_never_parsed():
    events = one_call_session(tool_start("c1", "get_balance", {}), tool_done("c1", 'x\n\n{"result":"y"}'))
    call = result_from_events(events).all_tool_calls[0]
    assert call.structured_result is None and call.result == 'x\n\n{"result":"y"}'


# -- structured content of real servers: any JSON value --------------------------------------

TIME_TEXT = '{\n  "timezone": "Europe/Paris",\n  "is_dst": false\n}'
TIME_VALUE = {"timezone": "Europe/Paris", "is_dst": False}


def test_the_event_structured_content_is_the_structured_result():
    call, errors, result = mcp_call(
        {
            "content": TIME_TEXT + '\n\n{"timezone":"Europe/Paris","is_dst":false}',
            "contents": [{"type": "text", "text": TIME_TEXT}],
            "structuredContent": TIME_VALUE,
        }
    )
    assert call.structured_result == TIME_VALUE and errors == [] and result.evidence_complete


def test_trailing_json_of_any_shape_is_accepted_without_structured_content():
    listing = "[FILE] a.txt\n[DIR] docs"
    call, errors, _ = mcp_call(
        {
            "content": listing + '\n\n{"content":"[FILE] a.txt\\n[DIR] docs"}',
            "contents": [{"type": "text", "text": listing}],
        }
    )
    assert call.structured_result == {"content": listing} and errors == []


def test_a_structured_list_is_kept_as_a_list():
    call, errors, _ = mcp_call(
        {
            "content": "two items\n\n[1,2]",
            "contents": [{"type": "text", "text": "two items"}],
            "structuredContent": [1, 2],
        }
    )
    assert call.structured_result == [1, 2] and errors == []


def test_trailing_json_that_differs_from_structured_content_is_a_mismatch():
    call, errors, _ = mcp_call(
        {
            "content": TIME_TEXT + '\n\n{"timezone":"Asia/Tokyo","is_dst":false}',
            "contents": [{"type": "text", "text": TIME_TEXT}],
            "structuredContent": TIME_VALUE,
        }
    )
    assert errors == ["result_mismatch"] and call.structured_result == TIME_VALUE
    assert call.result.endswith('"Asia/Tokyo","is_dst":false}'), "the text as received is kept"


# -- arguments --------------------------------------------------------------------------------


def _args_call(arguments):
    events = one_call_session(tool_start("m1", "lookup"), tool_done("m1", "ok"), call=("m1", "lookup", {}))
    events[[e["type"] for e in events].index("tool.execution_start")]["data"]["arguments"] = arguments
    outcome = result_from_events(events)
    return outcome.all_tool_calls[0], outcome.capture_errors


def test_arguments_given_as_a_json_string_are_parsed():
    call, errors = _args_call('{"account": "A1", "limit": 3}')
    assert call.arguments == {"account": "A1", "limit": 3} and call.raw_arguments is None and errors == []


@pytest.mark.parametrize("raw", ['{"account": "A1"', '["A1"]', 42])
def test_unreadable_arguments_are_kept_raw_with_a_capture_error(raw):
    call, errors = _args_call(raw)
    assert call.arguments is None and call.raw_arguments == raw
    assert [e.kind for e in errors] == ["unparsed_event"] and "kept raw" in errors[0].message


def _saved(display: str, preview: str, **result: object) -> dict:
    """A completion as runtime 1.0.102 sends it for a result over its 20 KB limit (pointer, preview, telemetry)."""
    pointer = (
        "Output too large to read at once (24.1 KB). Saved to: /tmp/1-copilot-tool-output-ab12.txt\n"
        "Consider using tools like grep (for searching) to examine portions of the output.\n\n"
        f"Preview (first 500 chars):\n{preview}"
    )
    contents = [{"type": "text", "text": display}]
    return {"content": pointer, "detailedContent": display[:10240], "contents": contents, **result}


def _saved_call(result: dict) -> tuple:
    done = tool_done("m1", result=result)
    done["data"]["toolTelemetry"] = {
        "properties": {"largeOutputWrittenToFile": "true", "largeOutputOriginalSizeBytes": "24700"},
        "metrics": {"large_output_threshold_bytes": 20480.0},
    }
    events = one_call_session(tool_start("m1", CALL[1], CALL[2], mcpServerName="ledger"), done, call=CALL)
    outcome = result_from_events(events)
    return outcome.all_tool_calls[0], [e.kind for e in outcome.capture_errors]


def test_a_result_saved_to_a_file_is_kept_whole_with_its_structured_part_and_the_pointer_apart():
    display = "owner: Ada\n" * 2200
    call, errors = _saved_call(_saved(display, display[:500], structuredContent={"result": display}))
    assert errors == []
    assert call.result == display + '\n\n{"result":' + json.dumps(display) + "}"
    assert call.structured_result == display
    assert call.sent_to_model is not None and call.sent_to_model.startswith("Output too large")
    assert call.large_output is not None and call.large_output.whole_result_kept
    assert call.large_output.path == "/tmp/1-copilot-tool-output-ab12.txt"
    assert (call.large_output.original_bytes, call.large_output.threshold_bytes) == (24700, 20480)


def test_a_preview_that_is_not_the_start_of_the_result_is_a_mismatch():
    display = "owner: Ada\n" * 2200
    call, errors = _saved_call(_saved(display, "owner: Bob\n" * 40))
    assert errors == ["result_mismatch"]
    assert call.result == display and call.large_output is not None
