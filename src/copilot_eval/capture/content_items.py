"""A tool result's ``contents`` list as content items, and the text the runtime renders from it.

Measured with runtime 1.0.102 and the MCP reference server ``server-everything`` (plus a server of
our own returning each kind of item): the text the model is sent (``result.content``) is the text
of every ``text`` item and of every embedded text resource, in order, joined with nothing in
between (``"alpha"`` and ``"beta"`` become ``"alphabeta"``). Images, audio, resource links and
embedded blobs add nothing to it; annotations change nothing (an item meant only for the user is
sent too). A failed call's text starts with ``MCP server '<name>': ``. When the result carries
``structuredContent``, ``"\\n\\n"`` and its compact JSON follow, unless the text already is that
JSON. An image whose data the runtime refuses is dropped from ``contents`` and replaced in the
text by a bracketed note (``[MCP image omitted because ...]``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.capture.events import dict_or_empty, int_or_none, text_or_none
from copilot_eval.evidence import ContentItem

RUNTIME_NOTE = re.compile(r"\[MCP [^\]]*omitted[^\]]*\]")
"""A note the runtime writes into the text in place of an item it dropped."""


@dataclass
class ContentReading:
    """The items of a ``contents`` list, and the problems met while reading them."""

    items: list[ContentItem] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _decode(data: Any, where: str, problems: list[str]) -> bytes | None:
    if not isinstance(data, str):
        problems.append(f"{where} without base64 data")
        return None
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        problems.append(f"{where} whose data is not valid base64")
        return None


def _with_bytes(item: ContentItem, content: bytes | None) -> ContentItem:
    if content is not None:
        item.data, item.size, item.sha256 = content, len(content), hashlib.sha256(content).hexdigest()
    return item


def _annotations(raw: dict[str, Any]) -> dict[str, Any] | None:
    value = raw.get("annotations")
    return dict(value) if isinstance(value, dict) else None


def _read_item(raw: dict[str, Any], index: int, problems: list[str]) -> ContentItem:
    kind = text_or_none(raw.get("type")) or "unknown"
    item = ContentItem(type=kind, annotations=_annotations(raw), mime_type=text_or_none(raw.get("mimeType")))
    where = f"content item {index} ({kind})"
    if kind == "text":
        item.text = text_or_none(raw.get("text"))
        if item.text is None:
            problems.append(f"{where} without text")
    elif kind in ("image", "audio"):
        _with_bytes(item, _decode(raw.get("data"), where, problems))
    elif kind == "resource_link":
        item.uri, item.name = text_or_none(raw.get("uri")), text_or_none(raw.get("name"))
        item.title, item.description = text_or_none(raw.get("title")), text_or_none(raw.get("description"))
        item.size = int_or_none(raw.get("size"))
    elif kind == "resource":
        resource = dict_or_empty(raw.get("resource"))
        item.uri, item.mime_type = text_or_none(resource.get("uri")), text_or_none(resource.get("mimeType"))
        if "blob" in resource:
            _with_bytes(item, _decode(resource.get("blob"), where, problems))
        else:
            item.text = text_or_none(resource.get("text"))
            if item.text is None:
                problems.append(f"{where} with neither text nor blob")
    else:
        item.text = text_or_none(raw.get("text"))  # an unknown type keeps what it plainly says
    return item


def read_content_items(contents: Any) -> ContentReading:
    """Every item of a completion's ``contents`` list, in order; ``None`` or absent gives none."""
    # The guards (None: nothing; not a list: a problem) are alike in shape to read_tool_output's over another field.
    reading = ContentReading()
    if contents is None:
        return reading
    if not isinstance(contents, list):
        reading.problems.append("result contents is not a list")
        return reading
    for index, raw in enumerate(contents):
        if isinstance(raw, dict):
            reading.items.append(_read_item(raw, index, reading.problems))
        else:
            reading.problems.append(f"content item {index} is not an object")
    return reading


def rendered_part(item: ContentItem) -> str:
    """What one item adds to the runtime's text (empty for images, audio, links and blobs)."""
    if item.type == "text" or (item.type == "resource" and item.data is None):
        return item.text or ""
    return ""


def first_disagreement(text: str, items: list[ContentItem]) -> tuple[int, str] | None:
    """Where ``text`` stops being the runtime's rendering of ``items``: (index of the first item
    it does not continue with, or ``len(items)`` for text left over after the last item; the
    rest of the text from there). ``None`` when the text is exactly that rendering."""
    position = 0
    for index, item in enumerate(items):
        part = rendered_part(item)
        if not text.startswith(part, position):
            return index, text[position:]
        position += len(part)
    return None if position == len(text) else (len(items), text[position:])


def without_runtime_notes(text: str) -> str:
    """The text less the notes the runtime writes in place of items it dropped."""
    return RUNTIME_NOTE.sub("", text)


def failure_prefix(server_name: str | None) -> str:
    """What the runtime puts in front of a failed MCP call's text."""
    return f"MCP server '{server_name}': " if server_name else ""


__all__ = [
    "ContentReading",
    "failure_prefix",
    "first_disagreement",
    "read_content_items",
    "rendered_part",
    "without_runtime_notes",
]
