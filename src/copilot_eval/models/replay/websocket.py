"""Responses over a WebSocket, recorded or replayed: each `response.create` frame is one model call.

Recording taps a real connection: frames from the runtime are noted, and the answer frames coming
back are collected until the one that ends the answer (`response.completed`, `response.failed`,
`response.incomplete` or `error`), then stored as one exchange. Replaying sends the stored frames.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from copilot import CopilotRequestContext, CopilotWebSocketCloseStatus, CopilotWebSocketHandler

from copilot_eval.models.wire.reply import error_body
from copilot_eval.models.wire.websocket import FrameAnswerer

from .cassette import Exchange
from .normalise import request_key

if TYPE_CHECKING:
    from .endpoint import CassetteEndpoint

__all__ = ["RecordingWebSocket", "ReplayWebSocket"]

FINAL_EVENTS = ("response.completed", "response.failed", "response.incomplete", "error")


def _request_body(data: str | bytes) -> dict[str, Any] | None:
    """The body of a `response.create` frame, None for any other frame."""
    try:
        message = json.loads(data)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("type") != "response.create":
        return None
    return {key: value for key, value in message.items() if key != "type"}


def _event_type(data: str | bytes) -> str | None:
    try:
        message = json.loads(data)
    except ValueError:
        return None
    return message.get("type") if isinstance(message, dict) else None


class ReplayWebSocket(FrameAnswerer["CassetteEndpoint"]):
    """Answers each `response.create` frame with the recorded frames; a frame with no recording ends the connection."""

    async def send_request_message_with_context(self, data: str | bytes, ctx: CopilotRequestContext) -> None:
        """Send the recorded answer frames for this request."""
        body = _request_body(data)
        if body is None:
            return
        cassette = self._endpoint.cassette_for(body, "responses")
        stored = self._endpoint.normalise(body)
        exchange = cassette.take(request_key(stored))
        if exchange is None:
            message = "copilot-eval replay: " + cassette.mismatch(stored, wire_api="responses", transport="websocket")
            await self.send_response_message(
                json.dumps({"type": "error", "status": 400, **error_body(400, message, "replay_mismatch")})
            )
            await self.hang_up(message, "replay_mismatch", RuntimeError(message))
            return
        for frame in exchange.response.get("frames", []):
            await self.send_response_message(self._endpoint.served_text(frame))


class RecordingWebSocket(CopilotWebSocketHandler):
    """Passes one real connection through and stores each call's request and answer frames."""

    def __init__(
        self, context: CopilotRequestContext, inner: CopilotWebSocketHandler, endpoint: CassetteEndpoint
    ) -> None:
        super().__init__(context)
        self._inner = inner
        self._endpoint = endpoint
        self._completion = inner._completion  # the SDK waits on this: share the inner one
        self._pending: list[tuple[Any, str, list[str]]] = []  # (stored request, key, frames so far)
        forward = self._to_runtime = inner.send_response_message

        async def tap(data: str | bytes) -> None:
            self._answer_frame(data)
            await forward(data)

        # The inner handler writes answers to the runtime through this method: note each frame on the way.
        # It may be the user's own handler, so no subclass can do it: the method of this one instance is
        # replaced, which mypy forbids for any method (the ignore stays for that reason).
        inner.send_response_message = tap  # type: ignore[method-assign]

    async def open(self) -> None:
        """Open the real connection."""
        await self._inner.open()

    async def send_request_message(self, data: str | bytes) -> None:
        """Forward a frame (the connection's own context)."""
        await self.send_request_message_with_context(data, self.context)

    async def send_request_message_with_context(self, data: str | bytes, ctx: CopilotRequestContext) -> None:
        """Note a `response.create` (or serve it from the cassette when filling gaps), then forward it."""
        body = _request_body(data)
        if body is not None:
            cassette = self._endpoint.cassette_for(body, "responses")
            stored = self._endpoint.normalise(body)
            key = request_key(stored)
            recorded = cassette.take(key)
            if recorded is not None:  # --record-missing: what is recorded is served, not asked again
                for frame in recorded.response.get("frames", []):
                    await self._to_runtime(self._endpoint.served_text(frame))
                return
            self._pending.append((stored, key, []))
        await self._inner.send_request_message_with_context(data, ctx)

    def _answer_frame(self, data: str | bytes) -> None:
        if not self._pending:
            return
        text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
        self._pending[0][2].append(self._endpoint.stored_text(text))
        if _event_type(text) in FINAL_EVENTS:
            stored, key, frames = self._pending.pop(0)
            cassette = self._endpoint.cassette_for({}, "responses")
            cassette.add(
                Exchange(
                    index=0,
                    key=key,
                    wire_api="responses",
                    transport="websocket",
                    request=stored,
                    path="",
                    response={"frames": frames},
                )
            )

    async def close(self, status: CopilotWebSocketCloseStatus | None = None) -> None:
        """Close the real connection."""
        await self._inner.close(status)

    async def aclose(self) -> None:
        """Release the real connection."""
        self._inner._suppress_close_on_dispose = self._suppress_close_on_dispose
        await self._inner.aclose()
