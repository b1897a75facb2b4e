"""What a FunctionModel's function may return: text, a ``CallTool``, or a non-empty list of them.

Kept apart from the endpoint (which imports the SDK), so that ``CallTool`` loads as cheaply as
``FunctionModel`` and the endpoint reads it without importing the model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CallTool", "read_result"]


@dataclass(frozen=True)
class CallTool:
    """A tool call a FunctionModel's function asks for (``id`` is made up when not given)."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None


def read_result(result: Any) -> tuple[str | None, tuple[CallTool, ...]]:
    """Text and tool calls from what the function returned; TypeError naming what it got otherwise."""
    if isinstance(result, str):
        return result, ()
    if isinstance(result, CallTool):
        return None, (result,)
    if isinstance(result, Sequence) and result and all(isinstance(item, CallTool) for item in result):
        return None, tuple(result)
    raise TypeError(f"must return text (str), a CallTool or a non-empty list of CallTool, got {result!r:.80}")
