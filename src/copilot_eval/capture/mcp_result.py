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
``structuredContent``. The display text is the runtime's own rendering of the content items
(``capture.content_items`` says how it is made); a text that is not that rendering is a
disagreement naming the first item it departs from. The full text is always kept on the tool
call; this module only explains it, and reports what it cannot explain instead of dropping it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from copilot_eval.capture.content_items import first_disagreement, rendered_part, without_runtime_notes
from copilot_eval.evidence import ContentItem

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


def _trailing_json(content: str) -> Any:
    """The JSON after the last separator of a text with no content items, else ``_MISSING``."""
    head, sep, tail = content.rpartition(SEPARATOR)
    return _loads(tail) if sep and head else _MISSING


def _split_display(text: str, items: list[ContentItem]) -> tuple[str, str | None, str | None]:
    """(display, trailing part or None, problem or None) of a text rendered from ``items``."""
    display = "".join(rendered_part(item) for item in items)
    if text == display:
        return display, None, None
    if text.startswith(display + SEPARATOR):
        return display, text[len(display) + len(SEPARATOR) :], None
    disagreement = first_disagreement(text, items)
    if disagreement is None:  # pragma: no cover - equal texts returned above
        return display, None, None
    index, rest = disagreement
    if index < len(items):
        problem = f"result text disagrees with content item {index} ({items[index]}): the text has {rest[:80]!r}"
    else:
        problem = f"unexplained trailing data after the display text: {rest[:120]!r}"
    return display, None, problem


def _read_with_items(text: str, items: list[ContentItem], structured_content: Any) -> McpReading:
    whole = _loads(text)
    if isinstance(whole, (dict, list)):
        # The runtime may send a JSON display text as compact JSON (a dict-returning tool).
        display = "".join(rendered_part(item) for item in items)
        if _loads(display) == whole:
            if structured_content is not _MISSING and structured_content != whole:
                return McpReading(_unwrap(structured_content), "display text and structured result disagree")
            return McpReading(_unwrap(structured_content) if structured_content is not _MISSING else whole)
    display, tail, problem = _split_display(without_runtime_notes(text), items)
    trailing = _loads(tail) if tail is not None else _MISSING
    has_structured = structured_content is not _MISSING
    payload = structured_content if has_structured else trailing
    if problem is not None:
        return McpReading(_unwrap(payload) if payload is not _MISSING else None, problem)
    if tail is not None and trailing is _MISSING:
        unwrapped = _unwrap(structured_content) if has_structured else None
        return McpReading(unwrapped, f"unexplained trailing data after the display text: {tail[:120]!r}")
    if has_structured and trailing is not _MISSING and trailing != structured_content:
        return McpReading(_unwrap(structured_content), "structuredContent differs from the structured part of the text")
    if payload is _MISSING:
        whole = _loads(display)  # a dict-returning tool of an older server: the text is the payload
        return McpReading(whole if isinstance(whole, (dict, list)) else None)
    if not _wrapper_agrees(display, payload):
        return McpReading(_unwrap(payload), "display text and structured result disagree")
    return McpReading(_unwrap(payload))


def read_mcp_result(
    content: str,
    items: list[ContentItem] | None = None,
    structured_content: Any = _MISSING,
    *,
    failure_prefix: str = "",
) -> McpReading:
    """Explain an MCP result text, checking it against its content items and structured part.

    ``items`` are the completion's content items (``None`` when the event carried no list);
    ``structured_content`` is the event's own ``structuredContent`` when it carries one (any JSON
    value): the trailing JSON of the text must then equal it. ``failure_prefix`` is what the
    runtime puts in front of a failed call's text.
    """
    if failure_prefix and content.startswith(failure_prefix):
        content = content[len(failure_prefix) :]
    if items is not None:
        return _read_with_items(content, items, structured_content)
    if structured_content is not _MISSING:
        trailing = _trailing_json(content)
        if trailing is not _MISSING and trailing != structured_content:
            return McpReading(
                _unwrap(structured_content), "structuredContent differs from the structured part of the text"
            )
        if not _wrapper_agrees(content, structured_content):
            return McpReading(_unwrap(structured_content), "display text and structured result disagree")
        return McpReading(_unwrap(structured_content))
    whole = _loads(content)
    return McpReading(whole if isinstance(whole, (dict, list)) else None)
