"""Crafted event sequences the runtime cannot be made to emit on demand."""

from __future__ import annotations

import base64

from copilot_eval.capture import result_from_events
from tests.capture.event_factory import (
    assistant,
    event,
    idle,
    one_call_session,
    start,
    tool_done,
    tool_start,
    usage,
    user,
)

ARGS = {"account": "A1"}


def kinds(result) -> list[str]:
    return [error.kind for error in result.capture_errors]


def test_identical_duplicates_keep_one_record():
    begin, done = tool_start("c1", "get_balance", ARGS), tool_done("c1", "42")
    repeat_begin = {**begin, "id": "evt-again-1"}
    repeat_done = {**done, "id": "evt-again-2"}
    result = result_from_events(one_call_session(begin, repeat_begin, done, repeat_done))
    assert result.tool_call_count("get_balance") == 1
    assert result.success and not result.capture_errors and result.evidence_complete


def test_conflicting_duplicate_keeps_the_first_and_fails_the_session():
    result = result_from_events(
        one_call_session(
            tool_start("c1", "get_balance", ARGS),
            tool_done("c1", "42"),
            tool_done("c1", "43"),
        )
    )
    assert result.tool_calls_for("get_balance")[0].result == "42"
    assert kinds(result) == ["conflicting_duplicate"] and result.success is False
    assert "conflicting_duplicate" in result.error


def test_conflicting_duplicate_start_is_flagged():
    result = result_from_events(
        one_call_session(
            tool_start("c1", "get_balance", ARGS),
            tool_start("c1", "get_balance", {"account": "B2"}),
            tool_done("c1"),
        )
    )
    assert result.tool_calls_for("get_balance")[0].arguments == ARGS and kinds(result) == ["conflicting_duplicate"]


def test_orphan_completion_invents_nothing_and_stays_in_raw_events():
    orphan = tool_done("ghost", "boo")
    events = one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1"), orphan)
    result = result_from_events(events)
    assert [c.call_id for c in result.all_tool_calls] == ["c1"]
    assert kinds(result) == ["unmatched_completion"] and result.capture_errors[0].call_id == "ghost"
    assert orphan in result.raw_events and result.success is False


def test_completion_without_call_id_is_uncorrelated():
    broken = event("tool.execution_complete", {"success": True, "result": {"content": "x"}})
    result = result_from_events(one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1"), broken))
    assert kinds(result) == ["uncorrelated_event"] and result.success is False


def test_missing_completion_is_pending_and_fails_the_session():
    result = result_from_events(one_call_session(tool_start("c1", "get_balance", ARGS)))
    call = result.all_tool_calls[0]
    assert call.completion_received is False and call.success is None and call.result is None
    assert not call.evidence_complete and kinds(result) == ["missing_completion"] and result.success is False


def test_requested_but_never_started_call_is_missing_too():
    result = result_from_events(one_call_session())
    assert result.all_tool_calls[0].name == "get_balance" and kinds(result) == ["missing_completion"]


def test_out_of_order_completion_still_correlates():
    result = result_from_events(one_call_session(tool_done("c1", "42"), tool_start("c1", "get_balance", ARGS)))
    assert result.success and result.all_tool_calls[0].result == "42"


def test_cancelled_call_fails_the_session():
    result = result_from_events(
        one_call_session(
            tool_start("c1", "get_balance", ARGS),
            tool_done("c1", None, success=False, error="Cancelled by user", code="cancelled"),
        )
    )
    assert result.all_tool_calls[0].success is False and kinds(result) == ["cancelled"] and not result.success


def test_aborted_idle_is_a_cancellation():
    events = [start(), user("hi"), usage(), assistant("partial"), event("session.idle", {"aborted": True})]
    result = result_from_events(events)
    assert kinds(result) == ["cancelled"] and result.success is False


def test_completion_without_output_is_incomplete_evidence_but_keeps_its_outcome():
    result = result_from_events(one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1", None)))
    call = result.all_tool_calls[0]
    assert call.success is True and call.completion_received is True and call.result is None
    assert not call.evidence_complete and not result.evidence_complete
    assert result.success is True  # the session executed; only the evidence is incomplete


def test_empty_output_is_not_missing_output():
    result = result_from_events(one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1", "")))
    call = result.all_tool_calls[0]
    assert call.result == "" and call.evidence_complete


def test_no_idle_means_no_success_for_a_saved_log():
    events = [start(), user("hi"), usage(), assistant("hello")]
    result = result_from_events(events)
    assert result.success is False and result.stop_reason is None and "idle" in result.error


def test_unreadable_expected_payload_is_reported_not_dropped():
    bad = event("assistant.message", {"toolRequests": []})  # no content
    result = result_from_events([start(), user("hi"), bad, idle()])
    assert kinds(result) == ["unparsed_event"] and not result.evidence_complete


def test_unknown_event_types_are_ignored():
    result = result_from_events(
        [start(), user("hi"), event("model.whatever", {"x": 1}), usage(), assistant("yo"), idle()]
    )
    assert result.success and not result.capture_errors


def test_several_images_keep_their_order():
    pngs = [base64.b64encode(bytes([i]) * 4).decode() for i in (1, 2, 3)]
    result_obj = {
        "content": "imgs",
        "binaryResultsForLlm": [
            {"type": "image", "data": pngs[0], "mimeType": "image/png"},
            {"type": "image", "data": pngs[1], "mimeType": "image/jpeg"},
            {"type": "image", "data": pngs[2], "mimeType": "image/png"},
        ],
    }
    call = result_from_events(
        one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1", result=result_obj))
    ).all_tool_calls[0]
    assert call.image_content == b"\x01" * 4 and call.image_media_type == "image/png"
    assert [(i.content, i.media_type) for i in call.additional_images] == [
        (b"\x02" * 4, "image/jpeg"),
        (b"\x03" * 4, "image/png"),
    ]


def test_image_only_output_is_complete_evidence():
    obj = {
        "content": None,
        "contents": [{"type": "image", "data": base64.b64encode(b"img").decode(), "mimeType": "image/webp"}],
    }
    call = result_from_events(
        one_call_session(tool_start("c1", "shot", {}), tool_done("c1", result=obj), call=("c1", "shot", {}))
    ).all_tool_calls[0]
    assert call.result is None and call.image_content == b"img" and call.evidence_complete
