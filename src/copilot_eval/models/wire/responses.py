"""The Responses API on the wire: a `response` object, or its event sequence (SSE or WebSocket)."""

from __future__ import annotations

import json
from typing import Any

from .answer import Answer

__all__ = ["response_events", "response_items", "response_object", "responses_body", "responses_stream"]

MALFORMED_BODY = b"<html>scripted malformed body: not JSON</html>"
MALFORMED_EVENT = "{this is not json"


def response_items(answer: Answer, *, response_id: str) -> list[dict[str, Any]]:
    """The output items of an answer: a message (when it has text), then one function call per tool call."""
    items: list[dict[str, Any]] = []
    if answer.text is not None:
        items.append(
            {
                "id": f"msg_{response_id}",
                "type": "message",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": answer.text, "annotations": []}],
            }
        )
    for call in answer.tool_calls:
        items.append(
            {
                "id": f"fc_{call.id}",
                "type": "function_call",
                "status": "completed",
                "call_id": call.id,
                "name": call.name,
                "arguments": call.arguments,
            }
        )
    return items


def _usage(answer: Answer) -> dict[str, Any] | None:
    if answer.usage is None:
        return None
    u = answer.usage
    return {
        "input_tokens": u["input_tokens"],
        "input_tokens_details": {"cached_tokens": u.get("cache_read_tokens", 0)},
        "output_tokens": u["output_tokens"],
        "output_tokens_details": {"reasoning_tokens": u.get("reasoning_tokens", 0)},
        "total_tokens": u["input_tokens"] + u["output_tokens"],
    }


def response_object(answer: Answer, *, model: str, response_id: str, status: str = "completed") -> dict[str, Any]:
    """The `response` object as a non-streamed body carries it (and `response.completed` does)."""
    done = status == "completed"
    body: dict[str, Any] = {
        "id": response_id,
        "object": "response",
        "created_at": 0,
        "status": status,
        "model": model,
        "output": response_items(answer, response_id=response_id) if done else [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }
    usage = _usage(answer) if done else None
    if usage is not None:
        body["usage"] = usage
    return body


def response_events(answer: Answer, *, model: str, response_id: str) -> list[dict[str, Any]]:
    """The streamed events of one answer, ending in `response.completed` (cut short for a cut-off turn)."""
    events: list[dict[str, Any]] = [
        {
            "type": "response.created",
            "response": response_object(answer, model=model, response_id=response_id, status="in_progress"),
        },
        {
            "type": "response.in_progress",
            "response": response_object(answer, model=model, response_id=response_id, status="in_progress"),
        },
    ]
    for index, item in enumerate(response_items(answer, response_id=response_id)):
        events.extend(_item_events(index, item))
    if answer.cut_off:
        # Stop mid-item, right after the first delta: a connection lost while the answer streams.
        deltas = [i for i, e in enumerate(events) if e["type"].endswith(".delta")]
        events = events[: deltas[0] + 1] if deltas else events
    else:
        events.append(
            {"type": "response.completed", "response": response_object(answer, model=model, response_id=response_id)}
        )
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return events


def _item_events(index: int, item: dict[str, Any]) -> list[dict[str, Any]]:
    item_id = item["id"]
    if item["type"] == "message":
        text = item["content"][0]["text"]
        where = {"item_id": item_id, "output_index": index, "content_index": 0}
        empty = {"type": "output_text", "text": "", "annotations": []}
        return [
            {
                "type": "response.output_item.added",
                "output_index": index,
                "item": {**item, "status": "in_progress", "content": []},
            },
            {"type": "response.content_part.added", **where, "part": empty},
            {"type": "response.output_text.delta", **where, "delta": text},
            {"type": "response.output_text.done", **where, "text": text},
            {"type": "response.content_part.done", **where, "part": item["content"][0]},
            {"type": "response.output_item.done", "output_index": index, "item": item},
        ]
    where = {"item_id": item_id, "output_index": index}
    return [
        {
            "type": "response.output_item.added",
            "output_index": index,
            "item": {**item, "status": "in_progress", "arguments": ""},
        },
        {"type": "response.function_call_arguments.delta", **where, "delta": item["arguments"]},
        {"type": "response.function_call_arguments.done", **where, "arguments": item["arguments"]},
        {"type": "response.output_item.done", "output_index": index, "item": item},
    ]


def responses_body(answer: Answer, *, model: str, response_id: str) -> bytes:
    """A non-streamed Responses body (non-JSON for a malformed turn, half a body when cut off)."""
    if answer.malformed:
        return MALFORMED_BODY
    text = json.dumps(response_object(answer, model=model, response_id=response_id))
    return (text[: len(text) // 2] if answer.cut_off else text).encode()


def responses_stream(answer: Answer, *, model: str, response_id: str) -> bytes:
    """The event sequence as SSE (`event:` + `data:` lines); a malformed turn ends in a non-JSON data line."""
    events = response_events(answer, model=model, response_id=response_id)
    if answer.malformed:
        events = events[:-1]
    text = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
    if answer.malformed:
        text += f"event: response.output_text.delta\ndata: {MALFORMED_EVENT}\n\n"
    return text.encode()
