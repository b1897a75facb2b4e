"""One request handler per runtime process that routes each session's model calls.

The SDK's request-handler seam is per connection, but a pooled runtime serves many runs at
once. Each run registers its own endpoint (a ScriptedModel conversation, an auditing wrapper, or
nothing) under its session id; requests of unregistered sessions are forwarded unchanged.
"""

from __future__ import annotations

from typing import Any

from copilot import CopilotRequestContext

from copilot_eval.runtime.process.forwarding import ForwardingHandler


class SessionRouter(ForwardingHandler):
    """Routes model requests by session id; forwards requests no run has claimed."""

    def __init__(self) -> None:
        super().__init__(None)
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

    def next_handler(self, ctx: CopilotRequestContext) -> Any:
        """The session's endpoint, or None (the real endpoint) for a session no run has claimed."""
        return self._routes.get(ctx.session_id or "")
