"""The tool messages the model was actually sent, read from the run's model requests.

A tool's completion event and the message the model gets can differ: a built-in tool's error is
"Path does not exist" in the event and a longer sentence for the model; a Python tool that raised
is reported to the model as the runtime's standard failure text. Where the run sees its model
requests (an in-process model source: scripted, function, replay; or ``audit_requests=True``),
this link reads each request body on its way to the model and keeps, per tool call id, the text of
the call's tool message (chat ``role: tool``; Responses ``function_call_output``). Capture puts it
on the call as ``sent_to_model`` when it differs from ``result``.

A body it cannot read is passed on untouched: this link only observes (the request audit is the
one that refuses).
"""

from __future__ import annotations

import json
from typing import Any

from copilot_eval.runtime.process.forwarding import NotingHandler

__all__ = ["ToolMessageLog", "tool_messages_of"]

# A body that holds a tool message holds one of these (chat, Responses); any other is not parsed.
_MARKS = ("tool_call_id", "function_call_output")
_BYTE_MARKS = tuple(mark.encode() for mark in _MARKS)


def _text(content: Any) -> str | None:
    """A message's text: a string, or its text parts joined by a blank line (None: no text at all)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    texts = [
        part["text"]
        for part in content
        if isinstance(part, dict) and part.get("type") in ("text", "input_text", "output_text")
        if isinstance(part.get("text"), str)
    ]
    return "\n\n".join(texts) if texts else None


def tool_messages_of(body: Any) -> dict[str, str]:
    """Tool call id -> tool message text of one request body (chat completions or Responses)."""
    if not isinstance(body, dict):
        return {}
    found: dict[str, str] = {}
    for message in body.get("messages") or []:  # chat completions
        if isinstance(message, dict) and message.get("role") == "tool":
            call_id, text = message.get("tool_call_id"), _text(message.get("content"))
            if isinstance(call_id, str) and text is not None:
                found[call_id] = text
    items = body.get("input")
    for item in items if isinstance(items, list) else []:  # Responses
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            call_id, text = item.get("call_id"), _text(item.get("output"))
            if isinstance(call_id, str) and text is not None:
                found[call_id] = text
    return found


class ToolMessageLog(NotingHandler):
    """Passes model calls on to ``inner`` (the real endpoint when None), noting the tool messages they carry."""

    def __init__(self, inner: Any = None) -> None:
        super().__init__(inner)
        self.sent: dict[str, str] = {}

    def note(self, data: str | bytes, *, frame: bool = False) -> None:
        """Record the tool messages of one request body (or WebSocket ``response.create`` frame)."""
        if isinstance(data, bytes):
            holds_one = any(mark in data for mark in _BYTE_MARKS)
        else:
            holds_one = any(mark in data for mark in _MARKS)
        if not holds_one:
            return  # no tool message in it (a first request): not worth parsing
        try:
            body = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            return
        if frame and (not isinstance(body, dict) or body.get("type") != "response.create"):
            return
        # The first sending is what the model saw first; a later request repeats the conversation.
        for call_id, text in tool_messages_of(body).items():
            self.sent.setdefault(call_id, text)
