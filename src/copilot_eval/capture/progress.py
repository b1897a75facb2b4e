"""Progress notifications of long-running tools, counted per call.

Runtime 1.0.102 relays an MCP server's ``notifications/progress`` as ``tool.execution_progress``
events whose ``progressMessage`` it writes itself: ``"2.0/4.0 (50%)"``, followed by
``": <message>"`` when the server gave one (measured with server-everything's
``trigger-long-running-operation`` and a server of our own that sends messages).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from copilot_eval.capture.events import event_data, event_type, text_or_none
from copilot_eval.evidence import ToolProgress

_SHAPE = re.compile(
    r"^(?P<progress>\d+(?:\.\d+)?)(?:/(?P<total>\d+(?:\.\d+)?))?(?: \(\d+(?:\.\d+)?%\))?(?:: (?P<message>.*))?$", re.S
)


def _note(progress: ToolProgress, text: str | None) -> None:
    progress.count += 1
    progress.last_message = text
    shape = _SHAPE.match(text) if text is not None else None
    if shape is None:
        progress.last_progress = progress.total = progress.message = None
        return
    progress.last_progress = float(shape["progress"])
    progress.total = float(shape["total"]) if shape["total"] else None
    progress.message = shape["message"]


def progress_by_call(events: Iterable[dict[str, Any]]) -> dict[str, ToolProgress]:
    """Call id -> the progress its tool reported, for every call that reported any."""
    found: dict[str, ToolProgress] = {}
    for event in events:
        data = event_data(event)
        if event_type(event) != "tool.execution_progress" or data is None:
            continue
        call_id = text_or_none(data.get("toolCallId"))
        if call_id is not None:
            _note(found.setdefault(call_id, ToolProgress()), text_or_none(data.get("progressMessage")))
    return found
