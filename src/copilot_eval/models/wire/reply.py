"""What one model call answers before it goes on a transport, and the error shapes every transport shares.

A leaf module: the HTTP side (``answering``) and the WebSocket side (``websocket``) both import it,
so neither has to import the other for these pieces.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

from copilot import CopilotRequestContext

from .answer import Answer

__all__ = ["Replier", "Reply", "error_body", "wait_unless_cancelled"]


@dataclass(frozen=True)
class Reply:
    """What one call answers, before it is put on a transport."""

    answer: Answer | None
    response_id: str
    delay_s: float
    problem: str | None = None  # a request the endpoint cannot read, or an answer it cannot build


class Replier(Protocol):
    """Anything that turns one request body into a Reply (a scripted or a function-backed endpoint)."""

    @property
    def model_name(self) -> str:
        """The model name written into every answer."""

    @property
    def label(self) -> str:
        """How error answers name the answerer."""

    async def answer(self, body: dict[str, Any], *, wire_api: str, ctx: CopilotRequestContext, transport: str) -> Reply:
        """The reply to one request body."""


def error_body(status: int, message: str, kind: str) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message, "type": kind, "code": str(status), "param": None}}


async def wait_unless_cancelled(seconds: float, cancel_event: asyncio.Event) -> bool:
    """Sleep, but stop as soon as the runtime cancels the request; False when cancelled."""
    if cancel_event.is_set():
        return False
    if seconds <= 0:
        return True
    try:
        await asyncio.wait_for(cancel_event.wait(), timeout=seconds)
    except TimeoutError:
        return True
    return False
