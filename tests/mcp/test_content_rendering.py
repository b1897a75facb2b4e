"""How runtime 1.0.102 renders each kind of content item into the text the model is sent, checked
through the real runtime with a server of our own: capture agrees with it, so no false mismatch."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from copilot_eval import CopilotEval, run_copilot
from tests.mcp.third_party_servers import scripted, warm_server

pytestmark = pytest.mark.runtime

SERVER = Path(__file__).parent / "content_server.py"


async def test_each_kind_of_item_is_rendered_as_capture_expects(tmp_path: Path) -> None:
    model = scripted(
        {
            "tool_calls": [
                {"id": "texts", "name": "c-show", "arguments": {"case": "texts"}},
                {"id": "user", "name": "c-show", "arguments": {"case": "for_user_only"}},
                {"id": "mixed", "name": "c-show", "arguments": {"case": "audio_link_blob"}},
                {"id": "structured", "name": "c-show_structured", "arguments": {}},
                {"id": "slow", "name": "c-count_slowly", "arguments": {"steps": 3}},
            ]
        },
        {"text": "done"},
    )
    with warm_server([sys.executable, str(SERVER)], tmp_path) as command:
        agent = CopilotEval(model=model, timeout_s=120, mcp_servers={"c": {"command": command[0], "args": command[1:]}})
        result = await run_copilot(agent, "Show every kind of content")
    assert result.success, result.error
    assert result.capture_errors == [] and result.evidence_complete, [str(e) for e in result.capture_errors]
    calls = {call.call_id: call for call in result.all_tool_calls}

    assert calls["texts"].result == "alphabeta\ngamma", "text items are joined with nothing in between"
    assert calls["user"].result == "shown to you and to the model", "an item meant for the user is sent too"
    assert calls["user"].content_items[0].audience == ["user"] and calls["user"].content_items[0].priority == 0.9

    mixed = calls["mixed"]
    assert mixed.result == "listeninside", "audio, links and blobs add nothing; embedded text does"
    assert [item.type for item in mixed.content_items] == ["text", "audio", "resource_link", "resource", "resource"]
    audio, link, blob, text = mixed.content_items[1:]
    assert audio.data == b"RIFF-not-really" and audio.mime_type == "audio/wav"
    assert (link.uri, link.name, link.title, link.size) == ("file:///notes.md", "notes", "Notes", 12)
    assert blob.is_blob and blob.data == b"\x00\x01" and blob.size == 2
    assert text.text == "inside" and text.uri == "file:///b.txt"

    structured = calls["structured"]
    assert structured.result == 'two items\n\n{"count":2}' and structured.structured_result == {"count": 2}

    progress = calls["slow"].progress
    assert progress is not None and progress.total == 3.0 and progress.message.startswith("step ")
    assert (
        progress.last_message
        == f"{progress.last_progress:.1f}/3.0 ({round(progress.last_progress / 3 * 100)}%): {progress.message}"
    )
