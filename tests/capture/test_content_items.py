"""Content items of MCP tool results as evidence, read from a real server-everything log and from
crafted events for the cases that log cannot show (a real disagreement, audio, unknown types)."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest

from copilot_eval import CopilotResult
from copilot_eval.capture import load_event_log, result_from_events
from copilot_eval.evidence import SCHEMA_VERSION
from tests.capture.event_factory import event, one_call_session, tool_done, tool_start

LOG = Path(__file__).parent / "data" / "server_everything.jsonl"


@pytest.fixture(scope="module")
def everything() -> CopilotResult:
    return result_from_events(load_event_log(LOG))


def _call(result: CopilotResult, call_id: str):
    (call,) = [c for c in result.all_tool_calls if c.call_id == call_id]
    return call


def test_every_call_of_the_real_log_agrees_with_its_items(everything):
    # The false alarms of mixed text + image and embedded resources are gone: no capture error.
    assert everything.capture_errors == [] and everything.evidence_complete
    assert len(everything.all_tool_calls) == 12


def test_text_and_image_items_are_kept_in_order_with_the_runtime_text(everything):
    image = _call(everything, "call_0")
    assert [item.type for item in image.content_items] == ["text", "image", "text"]
    assert image.result == "Here's the image you requested:The image above is the MCP logo."
    png = image.content_items[1]
    assert png.mime_type == "image/png" and png.data is not None and png.data.startswith(b"\x89PNG")
    assert png.size == len(png.data) and png.sha256 == hashlib.sha256(png.data).hexdigest()
    assert image.image_content == png.data, "the first image is still image_content"


def test_annotations_are_kept_per_item(everything):
    annotated = _call(everything, "call_1")
    text, image = annotated.content_items
    assert text.audience == ["user", "assistant"] and text.priority == 1.0
    assert image.audience == ["user"] and image.priority == 0.5
    assert annotated.content_of_type("image") == [image]


def test_resource_links_are_evidence(everything):
    links = _call(everything, "call_2").resource_links
    assert [(link.uri, link.name, link.mime_type) for link in links] == [
        ("demo://resource/dynamic/blob/1", "Blob Resource 1", "text/plain"),
        ("demo://resource/dynamic/text/2", "Text Resource 2", "text/plain"),
    ]
    assert links[0].description == "Resource 1: plaintext resource"
    assert everything.tool_returned_resource("demo://resource/dynamic/text/2")
    assert everything.tool_returned_resource("demo://resource/dynamic/blob/1", tool="ev-get-resource-links")
    assert not everything.tool_returned_resource("demo://resource/dynamic/blob/1", tool="ev-get-tiny-image")
    assert not everything.tool_returned_resource("demo://nothing")


def test_an_embedded_text_resource_keeps_its_text(everything):
    call = _call(everything, "call_3")
    (resource,) = call.embedded_resources
    assert resource.uri == "demo://resource/dynamic/text/2" and resource.mime_type == "text/plain"
    assert resource.text is not None and resource.text.startswith("Resource 2: This is a plaintext resource")
    assert resource.text in call.result, "the runtime sends an embedded text resource to the model"
    assert not resource.is_blob


def test_an_embedded_blob_keeps_its_bytes_size_and_digest(everything):
    (blob,) = _call(everything, "call_4").embedded_resources
    assert blob.is_blob and blob.text is None
    assert blob.data is not None and blob.data.startswith(b"Resource 3: This is a base64 blob")
    assert blob.size == len(blob.data) and blob.sha256 == hashlib.sha256(blob.data).hexdigest()


def test_structured_content_whose_text_is_its_json_is_no_mismatch(everything):
    call = _call(everything, "call_5")
    assert set(call.structured_result) == {"temperature", "conditions", "humidity"}


def test_a_failed_call_with_the_runtime_prefix_is_no_mismatch(everything):
    call = _call(everything, "call_6")
    assert call.success is False and call.result.startswith("MCP server 'ev': MCP error -32602")


def test_progress_notifications_are_kept_on_the_call(everything):
    progress = _call(everything, "call_7").progress
    assert progress is not None and progress.count >= 2, "the runtime relays most of the four steps"
    assert progress.total == 4.0 and progress.last_progress is not None and progress.last_progress >= 2
    assert progress.last_message.startswith(f"{progress.last_progress:.1f}/4.0 (") and progress.message is None
    assert _call(everything, "call_0").progress is None


def test_the_real_log_round_trips_through_native_json_bytes_included(everything, tmp_path):
    loaded = CopilotResult.load(everything.save(tmp_path / "r.json"))
    assert loaded == everything
    blob = _call(loaded, "call_4").embedded_resources[0]
    saved = json.loads((tmp_path / "r.json").read_text())
    item = next(c for c in saved["all_tool_calls"] if c["call_id"] == "call_4")["content_items"][1]
    assert base64.b64decode(item["data"]) == blob.data and item["sha256"] == blob.sha256


# -- crafted events ---------------------------------------------------------------------------

CALL = ("m1", "ev-mixed", {})


def _mcp(result: dict, *, success: bool = True, error: str | None = None) -> CopilotResult:
    start = tool_start("m1", CALL[1], {}, mcpServerName="ev")
    return result_from_events(
        one_call_session(start, tool_done("m1", result=result, success=success, error=error), call=CALL)
    )


def test_a_real_disagreement_is_a_capture_error_naming_the_item():
    outcome = _mcp(
        {"content": "alphaBETA", "contents": [{"type": "text", "text": "alpha"}, {"type": "text", "text": "beta"}]}
    )
    (error,) = outcome.capture_errors
    assert error.kind == "result_mismatch" and "content item 1 (text 'beta')" in error.message
    assert outcome.all_tool_calls[0].result == "alphaBETA", "the runtime's text is kept as received"


def test_text_left_over_after_the_items_is_unexplained():
    outcome = _mcp({"content": "alpha and more", "contents": [{"type": "text", "text": "alpha"}]})
    assert [e.kind for e in outcome.capture_errors] == ["result_mismatch"]
    assert "unexplained trailing data" in outcome.capture_errors[0].message


def test_audio_links_and_unknown_items_add_nothing_to_the_text():
    audio = base64.b64encode(b"RIFF-audio").decode()
    outcome = _mcp(
        {
            "content": "listen",
            "contents": [
                {"type": "text", "text": "listen"},
                {"type": "audio", "data": audio, "mimeType": "audio/wav"},
                {"type": "resource_link", "uri": "file:///x.md", "name": "x", "title": "X", "size": 12},
                {"type": "hologram", "text": "future"},
            ],
        }
    )
    call = outcome.all_tool_calls[0]
    assert outcome.capture_errors == []
    assert [i.type for i in call.content_items] == ["text", "audio", "resource_link", "hologram"]
    assert call.content_items[1].data == b"RIFF-audio" and call.content_items[1].mime_type == "audio/wav"
    assert call.resource_links[0].title == "X" and call.resource_links[0].size == 12


def test_the_runtime_note_for_a_dropped_image_is_no_mismatch():
    text = "[MCP image omitted because its data was invalid or its MIME type unsupported]"
    assert _mcp({"content": text, "contents": []}).capture_errors == []


def test_unreadable_item_data_is_reported_and_the_rest_kept():
    outcome = _mcp(
        {
            "content": "ok",
            "contents": [{"type": "text", "text": "ok"}, {"type": "image", "data": "%%%", "mimeType": "image/png"}],
        }
    )
    assert [e.kind for e in outcome.capture_errors] == ["unparsed_event"]
    assert "content item 1 (image)" in outcome.capture_errors[0].message
    assert [i.type for i in outcome.all_tool_calls[0].content_items] == ["text", "image"]


def _progress_of(*messages: str):
    events = one_call_session(
        tool_start("m1", CALL[1], {}, mcpServerName="ev"),
        *(event("tool.execution_progress", {"toolCallId": "m1", "progressMessage": m}) for m in messages),
        tool_done("m1", result={"content": "done", "contents": [{"type": "text", "text": "done"}]}),
        call=CALL,
    )
    return result_from_events(events).all_tool_calls[0].progress


def test_progress_with_a_message_is_read_into_its_parts():
    progress = _progress_of("1.0/3.0 (33%): step 1 of 3", "2.0/3.0 (67%): step 2 of 3")
    assert (progress.count, progress.last_progress, progress.total, progress.message) == (2, 2.0, 3.0, "step 2 of 3")


def test_progress_of_an_unknown_shape_keeps_its_text_and_guesses_nothing():
    progress = _progress_of("1.0/3.0 (33%)", "working")
    assert progress.count == 2 and progress.last_message == "working"
    assert progress.last_progress is None and progress.total is None and progress.message is None


# -- schema versions --------------------------------------------------------------------------


def test_a_file_of_schema_version_1_is_still_read(everything, tmp_path):
    data = json.loads(everything.save(tmp_path / "new.json").read_text())
    version_2_fields = ("content_items", "progress", "result_type", "sent_to_model", "exception")
    for call in data["all_tool_calls"]:
        for field in version_2_fields:
            call.pop(field)
    data.pop("host_requests")
    data["schema_version"] = 1
    (tmp_path / "old.json").write_text(json.dumps(data))
    old = CopilotResult.load(tmp_path / "old.json")
    assert old.schema_version == SCHEMA_VERSION == 4
    assert old.runtime_trace is None and old.phase_times is None  # never recorded: unknown
    assert old.customizations is None
    assert old.all_tool_calls[0].result == everything.all_tool_calls[0].result
    assert old.all_tool_calls[0].content_items == [] and old.host_requests == []
    assert [(c.result_type, c.sent_to_model, c.exception) for c in old.all_tool_calls] == [(None, None, None)] * len(
        old.all_tool_calls
    )


def test_a_file_of_schema_version_2_is_read_with_what_it_never_recorded_unknown(everything, tmp_path):
    data = json.loads(everything.save(tmp_path / "new.json").read_text())
    data.pop("hook_decisions")
    for entry in data["usage"]:
        entry.pop("purpose"), entry.pop("request_count")
    data["schema_version"] = 2
    (tmp_path / "old.json").write_text(json.dumps(data))
    old = CopilotResult.load(tmp_path / "old.json")
    assert old.hook_decisions is None  # version 2 never recorded hooks: unknown, not "none ran"
    assert {(e.purpose, e.request_count) for e in old.usage} <= {("turn", 1)}
    assert old.total_input_tokens == everything.total_input_tokens


def test_an_unknown_schema_version_is_refused_naming_what_is_read(tmp_path):
    (tmp_path / "future.json").write_text(json.dumps({"schema_version": 99}))
    with pytest.raises(ValueError, match=r"schema_version 99 is not supported \(this version reads 1, 2, 3, 4\)"):
        CopilotResult.load(tmp_path / "future.json")
