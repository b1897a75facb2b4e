"""One request handler per runtime process that routes each session's model calls.

The SDK's request-handler seam is per connection, but a pooled runtime serves many runs at
once. Each run registers its own endpoint (a ScriptedModel conversation, an auditing wrapper, or
nothing) under its session id; requests of unregistered sessions are forwarded unchanged.
"""

from __future__ import annotations

from typing import Any

import httpx
from copilot import CopilotRequestContext, CopilotRequestHandler


class SessionRouter(CopilotRequestHandler):
    """Routes model requests by session id; forwards requests no run has claimed."""

    def __init__(self) -> None:
        self._routes: dict[str, Any] = {}

    def register(self, session_id: str, endpoint: Any) -> None:
        """Send this session's model requests to ``endpoint`` (an object with send_request)."""
        self._routes[session_id] = endpoint

    def unregister(self, session_id: str) -> None:
        """Forget a finished session's route."""
        self._routes.pop(session_id, None)

    @property
    def active_routes(self) -> int:
        """How many sessions currently have a route (for leak checks in tests)."""
        return len(self._routes)

    async def send_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Answer with the session's endpoint, or forward to the real endpoint."""
        endpoint = self._routes.get(ctx.session_id or "")
        if endpoint is None:
            return await super().send_request(request, ctx)
        return await endpoint.send_request(request, ctx)

    async def open_websocket(self, ctx: CopilotRequestContext) -> Any:
        """Open the session's WebSocket handler, or the SDK's forwarder."""
        endpoint = self._routes.get(ctx.session_id or "")
        if endpoint is None:
            return await super().open_websocket(ctx)
        return await endpoint.open_websocket(ctx)
