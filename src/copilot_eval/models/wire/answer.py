"""An answer ready for the wire: text, tool calls, usage, or a fault, whoever decided it.

The ScriptedModel fills these in from its script, the FunctionModel from what its function
returns; the wire renderers (``chat``, ``responses``, ``websocket``) write them. Nothing here
imports the SDK.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Answer", "AnswerCall", "ScriptedHttpError"]


@dataclass(frozen=True)
class ScriptedHttpError:
    """An HTTP error answer: status, message and an optional Retry-After (seconds).

    A script's ``error:`` turn, or a FunctionModel whose function failed.
    """

    status: int
    message: str
    retry_after: float | None = None


# Alike in shape only to other small frozen records (runs/surfaces.py's, history/human_verdicts.py's): a
# wire tool call shares no meaning with them, so nothing is shared.
@dataclass(frozen=True)
class AnswerCall:
    """A tool call ready for the wire."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Answer:
    """A filled-in turn: what the wire renderers write."""

    text: str | None
    tool_calls: tuple[AnswerCall, ...]
    usage: dict[str, int] | None
    error: ScriptedHttpError | None = None
    malformed: bool = False
    cut_off: bool = False
