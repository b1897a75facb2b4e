"""A scripted model behind a shared quota: the first N model calls, across all sessions, are refused.

The ScriptedModel's own faults are counted per session, so a conversation played again would be
refused again; a rate limit is the model's state, not the session's. This wrapper keeps that
state across sessions and answers through the request-handler seam, so the real runtime sees a
real HTTP 429 (or 503) with a Retry-After header and reacts to it as it would to a hosted model.
"""

from __future__ import annotations

import threading
from typing import Any

import httpx

from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runtime.process.forwarding import ForwardingHandler


class QuotaModel:
    """``inner``'s answers, after ``refusals`` calls answered ``status`` with ``Retry-After: retry_after``."""

    live = False

    def __init__(self, inner: ScriptedModel, *, refusals: int, status: int = 429, retry_after: str = "1") -> None:
        self.inner, self.left, self.status, self.retry_after = inner, refusals, status, retry_after
        self.refused = 0
        self._lock = threading.Lock()

    @property
    def session_model(self) -> str:
        """The inner model's name."""
        return self.inner.session_model

    def provider_config(self) -> dict[str, Any] | None:
        """The inner model's provider settings."""
        return self.inner.provider_config()

    def endpoint(self, *, working_directory: str | None = None) -> Any:
        """The inner endpoint behind the shared quota."""
        return _QuotaEndpoint(self, self.inner.endpoint(working_directory=working_directory))

    def take(self) -> bool:
        """Whether this call is refused (and one refusal used up)."""
        with self._lock:
            if self.left <= 0:
                return False
            self.left -= 1
            self.refused += 1
            return True


class _QuotaEndpoint(ForwardingHandler):
    def __init__(self, quota: QuotaModel, inner: Any) -> None:
        super().__init__(inner)
        self.quota = quota

    async def send_request(self, request: httpx.Request, ctx: Any) -> httpx.Response:
        if self.quota.take():
            body = {"error": {"message": "over quota, slow down", "type": "rate_limit_error", "code": "rate_limited"}}
            return httpx.Response(self.quota.status, json=body, headers={"retry-after": self.quota.retry_after})
        return await self.forward_request(request, ctx)
