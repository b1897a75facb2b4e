"""The output part of a ``tool.execution_complete``: text, detailed text, images, MCP payload.

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

from copilot_eval.capture.events import text_or_none
from copilot_eval.capture.mcp_result import read_mcp_result
from copilot_eval.evidence import ToolImage


@dataclass
class ToolOutput:
    """Everything a completion carried, plus problems met while reading it."""

    text: str | None = None
    detailed: str | None = None
    images: list[ToolImage] = field(default_factory=list)
    structured: Any = None
    mismatch: str | None = None
    unreadable: list[str] = field(default_factory=list)


def _image_items(result: dict[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for key in ("contents", "binaryResultsForLlm"):
        entries = result.get(key)
        if isinstance(entries, list):
            items.extend(e for e in entries if isinstance(e, dict) and e.get("type") == "image")
    return items


def _decode_images(result: dict[str, Any], output: ToolOutput) -> None:
    seen: set[tuple[str, str | None]] = set()
    for item in _image_items(result):
        data, media_type = item.get("data"), text_or_none(item.get("mimeType"))
        if not isinstance(data, str):
            output.unreadable.append("image item without base64 data")
            continue
        if (data, media_type) in seen:
            continue
        seen.add((data, media_type))
        try:
            content = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            output.unreadable.append("image item whose data is not valid base64")
            continue
        output.images.append(ToolImage(content=content, media_type=media_type))


def read_tool_output(result: Any, *, is_mcp: bool) -> ToolOutput:
    """Read a completion's ``result`` object; ``None`` yields an output with nothing captured."""
    output = ToolOutput()
    if result is None:
        return output
    if not isinstance(result, dict):
        output.unreadable.append("result is not an object")
        return output
    output.text = text_or_none(result.get("content"))
    output.detailed = text_or_none(result.get("detailedContent"))
    _decode_images(result, output)
    if is_mcp and output.text is not None:
        # The event's own structuredContent is the evidence where the runtime carries it.
        structured = result.get("structuredContent")
        kwargs = {"structured_content": structured} if structured is not None else {}
        reading = read_mcp_result(output.text, result.get("contents"), **kwargs)
        output.structured, output.mismatch = reading.structured, reading.problem
    return output
