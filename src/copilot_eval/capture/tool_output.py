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
import json
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.capture.content_items import failure_prefix, read_content_items, rendered_part
from copilot_eval.capture.events import text_or_none
from copilot_eval.capture.large_output import preview_problem
from copilot_eval.capture.mcp_result import SEPARATOR, read_mcp_result
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
    given: str | None = None
    """The pointer and preview the model got instead of a result the runtime saved to a file."""


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


def _whole_mcp_text(items: list[ContentItem], structured: Any) -> str:
    """The text the runtime would have sent for these items had it not saved it to a file."""
    display = "".join(rendered_part(item) for item in items)
    if structured is None:
        return display
    try:
        if json.loads(display) == structured:
            return display  # a dict-returning tool: the text is the JSON itself
    except ValueError:
        pass
    return display + SEPARATOR + json.dumps(structured, ensure_ascii=False, separators=(",", ":"))


def read_tool_output(
    result: Any, *, mcp_server: str | None, failed: bool = False, saved_to_file: bool = False
) -> ToolOutput:
    """Read a completion's ``result`` object; ``None`` yields an output with nothing captured.

    ``mcp_server`` names the server of an MCP tool (``None`` for any other tool): only an MCP
    result's text is explained against its content items and structured part. ``saved_to_file``:
    the runtime gave the model a pointer and preview instead (``large_output``); the pointer goes to
    ``given``, and an MCP tool's whole text is rebuilt from its items.
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
    if saved_to_file:
        output.given = output.text
        if mcp_server is not None and isinstance(result.get("contents"), list) and not failed:
            output.text = _whole_mcp_text(contents.items, result.get("structuredContent"))
            output.mismatch = preview_problem(output.given, output.text)
            if output.mismatch is not None:
                return output
    if mcp_server is not None and output.text is not None:
        # The event's own structuredContent is the evidence where the runtime carries it.
        structured = result.get("structuredContent")
        kwargs: dict[str, Any] = {"structured_content": structured} if structured is not None else {}
        items = contents.items if isinstance(result.get("contents"), list) else None
        prefix = failure_prefix(mcp_server) if failed else ""
        reading = read_mcp_result(output.text, items, failure_prefix=prefix, **kwargs)
        output.structured, output.mismatch = reading.structured, reading.problem
    return output
