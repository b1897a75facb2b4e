"""A tool result over the runtime's size limit: the pointer and preview the model got, and the whole result.

Measured with runtime 1.0.102: a result over 20 KB (``large_output_threshold_bytes`` 20480) is
saved to a file, and the model is given, as the tool's message, a pointer to it and the first 500
characters (an MCP tool returning 33,034 bytes)::

    Output too large to read at once (32.3 KB). Saved to: /tmp/<n>-copilot-tool-output-<id>.txt
    Consider using tools like grep (for searching), head/tail ... to examine portions of the output.

    Preview (first 500 chars):
    <the result's first 500 characters>

The completion says so itself: ``toolTelemetry.properties`` has ``largeOutputWrittenToFile:
"true"`` and ``largeOutputOriginalSizeBytes``, its ``metrics`` the threshold. ``result.content`` is
that pointer; an MCP tool's ``contents`` still hold every item whole (``detailedContent`` is cut
to about 10 KB); a Python tool's whole text is in no event, only in what its handler handed the
runtime. This is the runtime's documented behaviour and what the model really saw, not missing
evidence: capture keeps the whole result as ``result`` and the pointer as ``sent_to_model``.
"""

from __future__ import annotations

import re
from typing import Any

from copilot_eval.capture.events import dict_or_empty, int_or_none
from copilot_eval.evidence import LargeOutput

_SAVED_TO = re.compile(r"Saved to: (\S+)")
PREVIEW_MARK = "Preview (first 500 chars):\n"


def _number(value: Any) -> int | None:
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return int_or_none(value)


def large_output_of(data: dict[str, Any], pointer: str | None) -> LargeOutput | None:
    """The runtime's record of a result it saved to a file (``None``: it gave the model the result itself)."""
    telemetry = dict_or_empty(data.get("toolTelemetry"))
    properties, metrics = dict_or_empty(telemetry.get("properties")), dict_or_empty(telemetry.get("metrics"))
    if str(properties.get("largeOutputWrittenToFile", "")).lower() != "true":
        return None
    found = _SAVED_TO.search(pointer or "")
    return LargeOutput(
        path=found.group(1) if found else None,
        original_bytes=_number(properties.get("largeOutputOriginalSizeBytes")),
        threshold_bytes=_number(metrics.get("large_output_threshold_bytes")),
    )


def preview_problem(pointer: str | None, whole: str) -> str | None:
    """Why the pointer's preview is not the start of ``whole`` (``None``: it is, or the pointer shows none)."""
    if pointer is None or PREVIEW_MARK not in pointer:
        return None
    preview = pointer.split(PREVIEW_MARK, 1)[1]
    if whole.startswith(preview):
        return None
    return f"the runtime's preview of a result it saved to a file is not the start of the result: {preview[:80]!r}"
