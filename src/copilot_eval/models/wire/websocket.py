"""Responses over a WebSocket: each `response.create` frame is one model call, answered with event frames."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from copilot import CopilotRequestContext, CopilotWebSocketCloseStatus, CopilotWebSocketHandler

from .reply import Replier, error_body, wait_unless_cancelled
from .responses import MALFORMED_EVENT, response_events

__all__ = ["AnsweringWebSocket", "FrameAnswerer", "answer_frame"]

EndpointT = TypeVar("EndpointT")


def _error_event(status: int, message: str, kind: str) -> str:
    return json.dumps({"type": "error", "status": status, **error_body(status, message, kind)})


async def answer_frame(
    endpoint: Replier, data: str | bytes, ctx: CopilotRequestContext, send: Callable[[str], Awaitable[None]]
) -> bool:
    """Answer one frame from the runtime through `send`; False when the connection must now end."""
    try:
        message = json.loads(data)
    except ValueError:
        await send(_error_event(400, f"{endpoint.label}: a frame that is not JSON", "invalid_request_error"))
        return True
    if not isinstance(message, dict) or message.get("type") != "response.create":
        return True  # other client frames carry nothing to answer
    body = {key: value for key, value in message.items() if key != "type"}
    reply = await endpoint.answer(body, wire_api="responses", ctx=ctx, transport="websocket")
    if not await wait_unless_cancelled(reply.delay_s, ctx.cancel_event):
        return False
    answer = reply.answer
    if answer is None:
        await send(_error_event(500, reply.problem or f"{endpoint.label} failed", "server_error"))
        return True
    if answer.error is not None:
        kind = "server_error" if answer.error.status >= 500 else "invalid_request_error"
        await send(_error_event(answer.error.status, answer.error.message, kind))
        return True
    events = response_events(answer, model=endpoint.model_name, response_id=reply.response_id)
    if answer.malformed:
        events = events[:-1]
    for event in events:
        await send(json.dumps(event))
    if answer.malformed:
        # The runtime skips a frame it cannot parse and waits on (measured: more than 40 s), so a
        # malformed answer also hangs up, as a broken upstream would.
        await send(MALFORMED_EVENT)
    return not (answer.cut_off or answer.malformed)


class FrameAnswerer(CopilotWebSocketHandler, Generic[EndpointT]):
    """A runtime WebSocket connection an in-process endpoint answers frame by frame (no upstream behind it)."""

    def __init__(self, context: CopilotRequestContext, endpoint: EndpointT) -> None:
        super().__init__(context)
        self._endpoint = endpoint

    async def send_request_message(self, data: str | bytes) -> None:
        """Answer a frame using the connection's own context."""
        await self.send_request_message_with_context(data, self.context)

    async def hang_up(self, description: str, error_code: str, error: Exception) -> None:
        """End the connection with an error, as a broken upstream would."""
        await self.close(CopilotWebSocketCloseStatus(description=description, error_code=error_code, error=error))


class AnsweringWebSocket(FrameAnswerer[Replier]):
    """One runtime WebSocket connection answered in-process by an answering endpoint."""

    async def send_request_message_with_context(self, data: str | bytes, ctx: CopilotRequestContext) -> None:
        """Answer a frame; a cut-off or malformed turn ends the connection without `response.completed`."""
        if not await answer_frame(self._endpoint, data, ctx, self.send_response_message):
            await self.hang_up("scripted cut-off", "cut_off", ConnectionResetError("scripted cut-off"))
