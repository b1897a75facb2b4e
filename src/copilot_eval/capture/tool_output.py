"""The output part of a ``tool.execution_complete``: text, detailed text, content items, images, MCP payload.

Images were measured with runtime 1.0.102: a Python tool returning
``ToolResult(binary_results_for_llm=[ToolBinaryResult(data=<base64>, mime_type="image/png")])``
arrives as ``result.binaryResultsForLlm = [{"data": <base64>, "mimeType": "image/png",
"type": "image"}]``; MCP tools report images as ``result.contents`` items of type ``image``
(``data``, ``mimeType``). Both are read, in that order, without counting one image twice.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.capture.content_items import failure_prefix, read_content_items
from copilot_eval.capture.events import text_or_none
from copilot_eval.capture.mcp_result import read_mcp_result
from copilot_eval.evidence import ContentItem, ToolImage


@dataclass
class ToolOutput:
    """Everything a completion carried, plus problems met while reading it."""

    text: str | None = None
    detailed: str | None = None
    images: list[ToolImage] = field(default_factory=list)
    items: list[ContentItem] = field(default_factory=list)
    structured: Any = None
    mismatch: str | None = None
    unreadable: list[str] = field(default_factory=list)


def _collect_images(result: dict[str, Any], items: list[ContentItem], output: ToolOutput) -> None:
    """Images of the content items, then those only a Python tool's binary results hold, each once."""
    seen: set[tuple[bytes, str | None]] = set()

    def add(content: bytes, media_type: str | None) -> None:
        if (content, media_type) not in seen:
            seen.add((content, media_type))
            output.images.append(ToolImage(content=content, media_type=media_type))

    for item in items:
        if item.type == "image" and item.data is not None:
            add(item.data, item.mime_type)
    entries = result.get("binaryResultsForLlm")
    for entry in entries if isinstance(entries, list) else []:
        if not (isinstance(entry, dict) and entry.get("type") == "image"):
            continue
        data, media_type = entry.get("data"), text_or_none(entry.get("mimeType"))
        if not isinstance(data, str):
            output.unreadable.append("image item without base64 data")
            continue
        try:
            add(base64.b64decode(data, validate=True), media_type)
        except (binascii.Error, ValueError):
            output.unreadable.append("image item whose data is not valid base64")


def read_tool_output(result: Any, *, mcp_server: str | None, failed: bool = False) -> ToolOutput:
    """Read a completion's ``result`` object; ``None`` yields an output with nothing captured.

    ``mcp_server`` names the server of an MCP tool (``None`` for any other tool): only an MCP
    result's text is explained against its content items and structured part.
    """
    output = ToolOutput()
    if result is None:
        return output
    if not isinstance(result, dict):
        output.unreadable.append("result is not an object")
        return output
    output.text = text_or_none(result.get("content"))
    output.detailed = text_or_none(result.get("detailedContent"))
    contents = read_content_items(result.get("contents"))
    output.items = contents.items
    output.unreadable.extend(contents.problems)
    _collect_images(result, contents.items, output)
    if mcp_server is not None and output.text is not None:
        # The event's own structuredContent is the evidence where the runtime carries it.
        structured = result.get("structuredContent")
        kwargs: dict[str, Any] = {"structured_content": structured} if structured is not None else {}
        items = contents.items if isinstance(result.get("contents"), list) else None
        prefix = failure_prefix(mcp_server) if failed else ""
        reading = read_mcp_result(output.text, items, failure_prefix=prefix, **kwargs)
        output.structured, output.mismatch = reading.structured, reading.problem
    return output
