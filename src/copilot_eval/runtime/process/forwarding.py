"""The one delegation every link of the request-handler chain shares: pass a call on to the next handler.

A link wraps the next handler (``inner``), or nothing, which means the SDK's own forwarder to the
real model endpoint. Links override ``send_request`` / ``open_websocket`` to do their part and call
``forward_request`` / ``forward_websocket`` for the rest; a link that looks at WebSocket frames
wraps the next handler's connection in a ``ForwardingWebSocket``. It sits with the runtime process because
the first link, the process's session router, is built there; the links of one run's chain
(``runtime/requests/``) build on it from above.
"""

from __future__ import annotations

from typing import Any

import httpx
from copilot import (
    CopilotRequestContext,
    CopilotRequestHandler,
    CopilotWebSocketCloseStatus,
    CopilotWebSocketHandler,
)

from copilot_eval.runtime.sdk_internals import pass_close_on_dispose, shared_websocket_completion

__all__ = ["ForwardingHandler", "ForwardingWebSocket", "NotingHandler"]


class ForwardingHandler(CopilotRequestHandler):
    """Forwards model calls to ``inner``, or to the real endpoint (the SDK's forwarder) when there is none."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner

    def next_handler(self, ctx: CopilotRequestContext) -> Any:
        """The handler this call goes on to (None: the real endpoint); the router picks one per session."""
        return self.inner

    async def forward_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Send an HTTP call on to the next handler."""
        target = self.next_handler(ctx)
        if target is None:
            return await CopilotRequestHandler.send_request(self, request, ctx)
        return await target.send_request(request, ctx)

    async def forward_websocket(self, ctx: CopilotRequestContext) -> CopilotWebSocketHandler:
        """Open the WebSocket handler of the next handler."""
        target = self.next_handler(ctx)
        if target is None:
            return await CopilotRequestHandler.open_websocket(self, ctx)
        return await target.open_websocket(ctx)

    async def send_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Pass the call on unchanged (links override this to do their part)."""
        return await self.forward_request(request, ctx)

    async def open_websocket(self, ctx: CopilotRequestContext) -> CopilotWebSocketHandler:
        """Pass the connection on unchanged (links override this to do their part)."""
        return await self.forward_websocket(ctx)


class ForwardingWebSocket(CopilotWebSocketHandler):
    """Passes one WebSocket connection on to ``inner``; links override
    ``send_request_message_with_context`` to look at each outgoing frame."""

    def __init__(self, context: CopilotRequestContext, inner: CopilotWebSocketHandler) -> None:
        super().__init__(context)
        self._inner = inner
        self._completion = shared_websocket_completion(inner)

    async def open(self) -> None:
        """Open the inner connection."""
        await self._inner.open()

    async def send_request_message(self, data: str | bytes) -> None:
        """Send a frame with the connection's own context."""
        await self.send_request_message_with_context(data, self.context)

    async def send_request_message_with_context(self, data: str | bytes, ctx: CopilotRequestContext) -> None:
        """Pass a frame on unchanged."""
        await self._inner.send_request_message_with_context(data, ctx)

    async def close(self, status: CopilotWebSocketCloseStatus | None = None) -> None:
        """Close the inner connection."""
        await self._inner.close(status)

    async def aclose(self) -> None:
        """Dispose of the inner connection the way the SDK asked this one to be disposed of."""
        pass_close_on_dispose(self, self._inner)
        await self._inner.aclose()


class NotingHandler(ForwardingHandler):
    """A link that only looks: each request body and outgoing WebSocket frame goes to ``note``, then on unchanged."""

    def note(self, data: str | bytes, *, frame: bool = False) -> None:
        """Look at one request body (``frame``: a WebSocket frame); links override this."""

    async def send_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Note the request's body, then forward it."""
        self.note(request.content or b"")
        return await self.forward_request(request, ctx)

    async def open_websocket(self, ctx: CopilotRequestContext) -> CopilotWebSocketHandler:
        """Wrap the inner WebSocket handler so each outgoing frame is noted."""
        return _NotingWebSocket(ctx, await self.forward_websocket(ctx), self)


class _NotingWebSocket(ForwardingWebSocket):
    """Notes outgoing frames; everything else is the inner handler's job."""

    def __init__(self, context: CopilotRequestContext, inner: CopilotWebSocketHandler, log: NotingHandler) -> None:
        super().__init__(context, inner)
        self._log = log

    async def send_request_message_with_context(self, data: str | bytes, ctx: CopilotRequestContext) -> None:
        """Note the frame, then pass it on."""
        self._log.note(data, frame=True)
        await self._inner.send_request_message_with_context(data, ctx)
