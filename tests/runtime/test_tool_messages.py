"""Reading the tool messages out of model request bodies (no runtime: the bodies as the runtime sends them)."""

from __future__ import annotations

import json

from copilot_eval.runtime.requests.tool_messages import ToolMessageLog, tool_messages_of


def test_chat_and_responses_bodies_give_their_tool_messages_by_call_id() -> None:
    chat = {
        "messages": [
            {"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "view", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "Path /x does not exist. Please provide a valid path."},
            {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "a"}, {"type": "image_url"}]},
        ]
    }
    responses = {
        "input": [
            {"type": "function_call", "call_id": "r1"},
            {"type": "function_call_output", "call_id": "r1", "output": "ok"},
        ]
    }
    assert tool_messages_of(chat) == {"c1": "Path /x does not exist. Please provide a valid path.", "c2": "a"}
    assert tool_messages_of(responses) == {"r1": "ok"}
    assert tool_messages_of(["not", "a", "body"]) == {} and tool_messages_of({"messages": "?"}) == {}


def test_the_log_keeps_the_first_sending_and_ignores_what_it_cannot_read() -> None:
    log = ToolMessageLog()
    log.note(json.dumps({"messages": [{"role": "tool", "tool_call_id": "c1", "content": "first"}]}).encode())
    log.note(json.dumps({"messages": [{"role": "tool", "tool_call_id": "c1", "content": "compacted later"}]}))
    log.note(b"{not json tool_call_id")
    frame = {"type": "response.create", "input": [{"type": "function_call_output", "call_id": "w1", "output": "w"}]}
    log.note(json.dumps(frame), frame=True)
    other = {"type": "session.update", "input": [{"type": "function_call_output", "call_id": "w2", "output": "?"}]}
    log.note(json.dumps(other), frame=True)
    assert log.sent == {"c1": "first", "w1": "w"}
