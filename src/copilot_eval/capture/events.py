"""Session events as plain dicts: one shape for SDK objects and saved JSONL lines alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

WIRE_ATTRIBUTE = "copilot_eval_wire"
"""Where the runner leaves the JSON object an SDK event was parsed from (see runtime.sdk_internals)."""

ROOT = ""
"""Scope key of the root agent: events without an ``agentId`` belong to it."""


def as_event_dict(event: Any) -> dict[str, Any]:
    """An event as a dict: a decoded dict as it is, an SDK event as the runtime sent it when the
    runner kept that (the typed form drops annotations and sampling messages), else ``to_dict()``."""
    if isinstance(event, Mapping):
        return dict(event)
    wire = getattr(event, WIRE_ATTRIBUTE, None)
    if isinstance(wire, Mapping):
        return dict(wire)
    to_dict = getattr(event, "to_dict", None)
    if callable(to_dict):
        # Duck-typed so capture never has to import the SDK (about a second of import time).
        decoded: dict[str, Any] = to_dict()
        return decoded
    raise TypeError(f"not a session event: {type(event).__name__}")


def normalise(events: Iterable[Any]) -> list[dict[str, Any]]:
    """Every event as a dict, in the order given."""
    return [as_event_dict(event) for event in events]


def event_type(event: Mapping[str, Any]) -> str:
    """The event's type string (``""`` when absent)."""
    value = event.get("type")
    return value if isinstance(value, str) else ""


def event_data(event: Mapping[str, Any]) -> dict[str, Any] | None:
    """The event's payload, or ``None`` when it is not an object."""
    data = event.get("data")
    return data if isinstance(data, dict) else None


def agent_scope(event: Mapping[str, Any]) -> str:
    """Which agent emitted the event: ``ROOT`` or the child's ``agentId``."""
    value = event.get("agentId")
    return value if isinstance(value, str) and value else ROOT


def event_id(event: Mapping[str, Any]) -> str | None:
    """The event's own id, when it has one."""
    value = event.get("id")
    return str(value) if value is not None else None


def list_or_empty(value: Any) -> list[Any]:
    """A list value, or ``[]`` for anything else (a damaged log may hold a number where a list goes)."""
    return value if isinstance(value, list) else []


def dict_or_empty(value: Any) -> dict[str, Any]:
    """A dict value, or ``{}`` for anything else."""
    return value if isinstance(value, dict) else {}


def text_or_none(value: Any) -> str | None:
    """A string value, or ``None`` for anything else (never a coerced ``str(None)``)."""
    return value if isinstance(value, str) else None


def int_or_none(value: Any) -> int | None:
    """An integer count, or ``None`` when missing or not a number (a 0 stays 0)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def number_or_none(value: Any) -> float | None:
    """A numeric value as float, or ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)
