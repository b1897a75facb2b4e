"""Evidence built from event logs recorded with the real runtime (see record_event_logs.py)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from copilot_eval.capture import RunFacts, load_event_log, result_from_events
from copilot_eval.evidence import SCHEMA_VERSION

DATA = Path(__file__).parent / "data"


def log(name: str) -> list[dict]:
    return load_event_log(DATA / f"{name}.jsonl")


def test_simple_tool_call_is_fully_evidenced():
    result = result_from_events(log("simple_tool"))
    assert result.success and result.stop_reason is None and result.error is None
    call = result.tool_calls_for("get_balance")[0]
    assert (call.call_id, call.arguments, call.result) == ("call_1", {"account": "A1"}, "balance of A1: 42")
    assert call.completion_received is True and call.success is True and call.evidence_complete
    assert result.tool_was_called_with("get_balance", account="A1")
    assert not result.tool_was_called_with("get_balance", account="B2")
    assert result.final_response == "Balance is 42"
    assert [t.role for t in result.turns] == ["user", "assistant", "assistant"]
    assert result.turns[1].tool_call_ids == ["call_1"]
    assert result.turns[0].content == "what is my balance?"  # not the transformed prompt
    assert result.model_used == "gpt-4.1" and result.runtime_version == "1.0.102"
    assert result.session_id and result.evidence_complete and not result.capture_errors


def test_raw_events_keep_every_event_in_order():
    events = log("simple_tool")
    assert result_from_events(events).raw_events == events


def test_sdk_event_objects_and_dicts_give_the_same_result():
    from copilot.generated.session_events import SessionEvent

    events = log("simple_tool")
    mixed = [SessionEvent.from_dict(e) if i % 2 else e for i, e in enumerate(events)]
    a, b = result_from_events(events), result_from_events(mixed)
    assert a.all_tool_calls == b.all_tool_calls and a.usage == b.usage and a.turns == b.turns


def test_usage_entries_and_totals_from_the_runtime():
    result = result_from_events(log("simple_tool"))
    assert [(u.input_tokens, u.output_tokens) for u in result.usage] == [(100, 10), (100, 10)]
    first = result.usage[0]
    assert first.cache_read_tokens == 0 and first.reasoning_tokens is None and first.duration_ms is not None
    assert result.token_usage == {"input_tokens": 200, "output_tokens": 20, "total_tokens": 220}
    assert result.session_premium_requests == 0.0  # BYOK: the runtime reports zero, not unknown


def test_builtin_create_records_its_permission():
    result = result_from_events(log("builtin_create"))
    assert result.success and result.permission_requested
    (permission,) = result.permissions
    assert (permission.kind, permission.tool_name, permission.decision) == ("write", "create", "approved")
    assert permission.tool_call_id == "call_c"
    assert result.tool_calls_for("create")[0].detailed_result.startswith("\ndiff --git")


def test_raising_tool_fails_without_failing_the_session():
    result = result_from_events(log("tool_raises"))
    call = result.tool_calls_for("transfer_check")[0]
    assert result.success and call.success is False and call.error == "Tool execution failed"
    assert call.result is None and call.evidence_complete


def test_runner_exception_text_reaches_the_tool_error():
    facts = RunFacts(stop_reason="completed", tool_exceptions={"call_x": "ValueError: account A9 is locked"})
    call = result_from_events(log("tool_raises"), facts=facts).tool_calls_for("transfer_check")[0]
    assert "ValueError: account A9 is locked" in call.error and call.success is False


def test_tool_image_is_kept_as_bytes():
    call = result_from_events(log("tool_image")).tool_calls_for("balance_chart")[0]
    assert call.image_media_type == "image/png" and call.image_content.startswith(b"\x89PNG")
    assert call.result == "chart of A1" and call.additional_images == []


def test_mcp_string_result_keeps_text_and_parses_structured_part():
    result = result_from_events(log("mcp_tools"))
    text_call = result.tool_calls_for("ledger-lookup_owner")[0]
    assert text_call.result == 'owner of A1: Ada\n\n{"result":"owner of A1: Ada"}'
    assert text_call.structured_result == "owner of A1: Ada" and text_call.mcp_server_name == "ledger"
    dict_call = result.tool_calls_for("ledger-account_details")[0]
    assert dict_call.structured_result == {"account": "A1", "balance": 42, "currency": "EUR"}
    assert not result.capture_errors and result.evidence_complete


def test_task_subagent_gets_its_own_child_result():
    result = result_from_events(log("task_subagent"))
    (invocation,) = result.subagent_invocations
    assert (invocation.kind, invocation.status, invocation.parent_call_id) == ("subagent", "completed", "call_t")
    assert invocation.duration_ms == 37 and invocation.total_tokens == 110
    child = invocation.result
    assert child is not None and child.success and child.final_response == "Nothing here"
    assert [t.content for t in child.turns] == ["look around", "Nothing here"]
    assert len(child.usage) == 1
    # Parent evidence stays session-local; totals count the child once.
    assert len(result.usage) == 2 and "Nothing here" not in result.all_responses
    assert [c.name for c in result.all_tool_calls] == ["task"]
    assert len(result.all_usage) == 3 and result.total_input_tokens == 300
    assert result.execution_results == [result, child]


def test_custom_agent_dispatch_is_recorded_without_an_invented_trace():
    result = result_from_events(log("custom_agent"))
    (invocation,) = result.subagent_invocations  # the runtime repeats the identical event
    assert (invocation.name, invocation.kind, invocation.result) == ("reviewer", "custom_agent", None)
    assert result.success and result.final_response == "Reviewed: fine"


def test_http_500_becomes_a_session_error_with_status():
    result = result_from_events(log("http_500"))
    assert result.success is False and result.stop_reason is None
    assert "upstream exploded" in result.error and "HTTP 500" in result.error
    assert result.usage == [] and result.total_tokens is None and result.token_usage == {}


def test_session_error_beats_a_completed_stop_reason():
    result = result_from_events(log("http_500"), facts=RunFacts(stop_reason="completed"))
    assert result.success is False and result.stop_reason == "completed"


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.jsonl")))
def test_every_fixture_round_trips_through_native_json(name, tmp_path):
    result = result_from_events(log(name))
    loaded = type(result).load(result.save(tmp_path / "r.json"))
    assert loaded == result
    assert json.loads((tmp_path / "r.json").read_text())["schema_version"] == SCHEMA_VERSION


def test_image_bytes_survive_native_json(tmp_path):
    result = result_from_events(log("tool_image"))
    loaded = type(result).load(result.save(tmp_path / "r.json"))
    call = loaded.tool_calls_for("balance_chart")[0]
    assert call.image_content == result.tool_calls_for("balance_chart")[0].image_content
    assert isinstance(call.image_content, bytes) and base64.b64encode(call.image_content)
