"""Reading an MCP tool's result: display text, then the JSON of its structured content.

Measured with runtime 1.0.102. A tool that returns structured content reaches the runtime as
``content = <display text> + "\\n\\n" + <compact JSON of structuredContent>``, with the display
text alone in ``contents`` and the structured value itself in ``structuredContent``. The value
is any JSON value: FastMCP wraps a plain return value as ``{"result": ...}``, while the reference
servers send their own objects (``mcp-server-time``: ``{"timezone": ..., "datetime": ...}``;
the filesystem server: ``{"content": "[FILE] a.txt ..."}``)::

    content            = 'owner of A1: Ada\\n\\n{"result":"owner of A1: Ada"}'
    contents           = [{"type": "text", "text": "owner of A1: Ada"}]
    structuredContent  = {"result": "owner of A1: Ada"}

A dict-returning tool of an older server arrives as the bare JSON document with no
``structuredContent``. The full text is always kept on the tool call; this module only explains
it, and reports what it cannot explain instead of dropping it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

SEPARATOR = "\n\n"
_MISSING = object()


@dataclass(frozen=True)
class McpReading:
    """What the result says: the structured payload (``None`` if none) and any disagreement."""

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
    found = [c.get("text") for c in contents if isinstance(c, dict) and c.get("type") == "text"]
    texts = [t for t in found if isinstance(t, str)]
    return "\n".join(texts) if texts else None


def _unwrap(payload: Any) -> Any:
    """FastMCP's ``{"result": value}`` wrapper stands for ``value``; any other payload is itself."""
    if isinstance(payload, dict) and set(payload) == {"result"}:
        return payload["result"]
    return payload


def _wrapper_agrees(display: str, payload: Any) -> bool:
    # Only FastMCP's wrapper promises that the display text shows the wrapped value.
    if not (isinstance(payload, dict) and set(payload) == {"result"}):
        return True
    value: object = payload["result"]
    if isinstance(value, str):
        return display == value
    shown: object = _loads(display)
    return shown == value  # a non-string value is shown as JSON; compare meaning


def _trailing_json(content: str, display: str | None) -> Any:
    """The JSON after the display text, ``_MISSING`` when there is none, ``None``-free."""
    if display is not None:
        if not content.startswith(display + SEPARATOR):
            return _MISSING
        return _loads(content[len(display) + len(SEPARATOR) :])
    # No content blocks to tell where the display ends: try the last separator.
    head, sep, tail = content.rpartition(SEPARATOR)
    return _loads(tail) if sep and head else _MISSING


def read_mcp_result(content: str, contents: Any = None, structured_content: Any = _MISSING) -> McpReading:
    """Explain an MCP result text, checking its display and structured parts against each other.

    ``structured_content`` is the event's own ``structuredContent`` when it carries one (any JSON
    value); the trailing JSON of the text must then equal it.
    """
    display = _display_text(contents)
    trailing = _trailing_json(content, display)
    has_tail = display is not None and content != display and content.startswith(display)

    if structured_content is not _MISSING:
        if trailing is not _MISSING and trailing != structured_content:
            return McpReading(
                _unwrap(structured_content), "structuredContent differs from the structured part of the text"
            )
        if has_tail and display is not None and trailing is _MISSING:
            return McpReading(
                _unwrap(structured_content),
                f"unexplained trailing data after the display text: {content[len(display) :][:120]!r}",
            )
        shown = display if display is not None else content
        if not _wrapper_agrees(shown, structured_content):
            return McpReading(_unwrap(structured_content), "display text and structured result disagree")
        return McpReading(_unwrap(structured_content))

    if has_tail and display is not None:
        if trailing is _MISSING:
            return McpReading(
                problem=f"unexplained trailing data after the display text: {content[len(display) :][:120]!r}"
            )
        if not _wrapper_agrees(display, trailing):
            return McpReading(_unwrap(trailing), "display text and structured result disagree")
        return McpReading(_unwrap(trailing))

    # No trailing part: the text is the whole payload (dict-returning tools) or plain display.
    whole = _loads(content)
    if whole is not _MISSING and isinstance(whole, (dict, list)):
        if display is not None and _loads(display) is not _MISSING and _loads(display) != whole:
            return McpReading(whole, "result text and content blocks disagree")
        return McpReading(whole)
    if display is not None and display != content and not content.startswith(display):
        return McpReading(problem="result text does not start with the display content")
    return McpReading()
