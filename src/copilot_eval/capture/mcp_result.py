"""Reading an MCP tool's result text: display text, then a structured ``{"result": ...}`` part.

Measured with runtime 1.0.102 and the ``mcp`` package (string-returning tool)::

    content            = 'owner of A1: Ada\\n\\n{"result":"owner of A1: Ada"}'
    contents           = [{"type": "text", "text": "owner of A1: Ada"}]
    structuredContent  = {"result": "owner of A1: Ada"}

A dict-returning tool arrives as the bare JSON document (compact in ``content``, pretty-printed in
``contents``) with no ``structuredContent``. The full text is always kept on the tool call; this
module only explains it, and reports what it cannot explain instead of dropping it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

_SEPARATOR = "\n\n"
_MISSING = object()


@dataclass(frozen=True)
class McpReading:
    """What the text says: the structured payload (``None`` if none) and any disagreement."""

    structured: Any = None
    problem: str | None = None


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return _MISSING


def _display_text(contents: Any) -> str | None:
    if not isinstance(contents, list):
        return None
    texts = [c.get("text") for c in contents if isinstance(c, dict) and c.get("type") == "text"]
    texts = [t for t in texts if isinstance(t, str)]
    return "\n".join(texts) if texts else None


def _agrees(display: str, payload: Any) -> bool:
    if isinstance(payload, str):
        return display == payload
    # A non-string payload is shown as JSON; compare meaning, not whitespace.
    return _loads(display) == payload


def read_mcp_result(content: str, contents: Any = None, structured_content: Any = _MISSING) -> McpReading:
    """Explain an MCP result text, checking display and structured parts against each other."""
    display = _display_text(contents)
    structured_field = structured_content if isinstance(structured_content, dict) else _MISSING

    if display is not None and content.startswith(display) and content != display:
        trailing = content[len(display):]
        payload = _loads(trailing[len(_SEPARATOR):]) if trailing.startswith(_SEPARATOR) else _MISSING
        if not isinstance(payload, dict) or set(payload) != {"result"}:
            return McpReading(problem=f"unexplained trailing data after the display text: {trailing[:120]!r}")
        if structured_field is not _MISSING and structured_field != payload:
            return McpReading(payload["result"], "structuredContent differs from the structured part of the text")
        if not _agrees(display, payload["result"]):
            return McpReading(payload["result"], "display text and structured result disagree")
        return McpReading(payload["result"])

    # No trailing part: the text is the whole payload (dict-returning tools) or plain display.
    whole = _loads(content)
    if structured_field is not _MISSING:
        if "result" not in structured_field:
            return McpReading(structured_field, None)
        value = structured_field["result"]
        if not _agrees(content, value):
            return McpReading(value, "result text and structuredContent disagree")
        return McpReading(value)
    if whole is not _MISSING and isinstance(whole, (dict, list)):
        if display is not None and _loads(display) is not _MISSING and _loads(display) != whole:
            return McpReading(whole, "result text and content blocks disagree")
        return McpReading(whole)
    if display is not None and display != content and not content.startswith(display):
        return McpReading(problem="result text does not start with the display content")
    return McpReading()
