"""What a FunctionModel's function may return: text, a ``CallTool``, or a non-empty list of both.

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
    """Text and tool calls from what the function returned; TypeError naming what it got otherwise.

    A list may mix text and calls, as a real model's message does ("Let me look that up" and a
    call): the texts are joined into the message's text, the calls keep their order.
    """
    if isinstance(result, str):
        return result, ()
    if isinstance(result, CallTool):
        return None, (result,)
    if isinstance(result, Sequence) and result and all(isinstance(item, (CallTool, str)) for item in result):
        texts = [item for item in result if isinstance(item, str)]
        calls = tuple(item for item in result if isinstance(item, CallTool))
        return ("".join(texts) if texts else None), calls
    raise TypeError(f"must return text (str), a CallTool, or a non-empty list of text and CallTool, got {result!r:.80}")
