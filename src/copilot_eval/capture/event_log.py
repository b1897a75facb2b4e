"""Reading saved event logs (JSONL, one ``SessionEvent.to_dict()`` per line). The only I/O here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class EventLogError(ValueError):
    """A file that is missing or is not a session event log; the message names file and line."""


def load_event_log(path: str | Path) -> list[dict[str, Any]]:
    """Read a JSONL event log into dicts, refusing lines that are not session events."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise EventLogError(f"{source}: file not found") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise EventLogError(f"{source}: cannot read: {exc}") from exc
    events: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EventLogError(f"{source}:{number}: not JSON ({exc.msg})") from exc
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise EventLogError(f"{source}:{number}: not a session event (no 'type' field)")
        events.append(event)
    if not events:
        raise EventLogError(f"{source}: no session events found")
    return events
