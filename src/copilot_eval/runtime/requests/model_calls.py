"""What the run's model calls did, seen from the request-handler seam.

When a run ends early (a timeout while the runtime is still retrying a failing endpoint, or
waiting on one that never answers) the session events say nothing yet; this log is then the only
honest account of why. It wraps the session's endpoint (a ScriptedModel conversation, or the
SDK's forwarder for a real endpoint) and records each call's outcome, never headers or bodies
of successful calls (they may carry keys or private content).
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from copilot_eval.retry_after import retry_after_seconds
from copilot_eval.runtime.process.forwarding import ForwardingHandler

MAX_MESSAGE_CHARS = 200


class ModelCallLog(ForwardingHandler):
    """Forwards model calls to ``endpoint`` (the SDK's forwarder when None) and remembers outcomes."""

    def __init__(self, endpoint: Any = None) -> None:
        super().__init__(endpoint)
        self.calls = 0
        self.failures_in_a_row = 0
        self.last_failure: str | None = None
        # The latest call's HTTP status when it failed and no call has started since (None: no status,
        # or the runtime has moved on), and the Retry-After it sent, in seconds. A refusal followed by
        # a call still waiting for its answer says nothing of how the run ended.
        self.last_failure_status: int | None = None
        self.last_retry_after_s: float | None = None
        self._pending: dict[int, float] = {}

    async def send_request(self, request: httpx.Request, ctx: Any) -> httpx.Response:
        """Answer through the wrapped endpoint; an error status or exception is recorded, then passed on."""
        self.calls += 1
        number = self.calls
        self.last_failure_status = self.last_retry_after_s = None
        self._pending[number] = time.monotonic()
        try:
            response = await self.forward_request(request, ctx)
        except BaseException as error:
            self._failed(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__, None, None)
            raise
        finally:
            self._pending.pop(number, None)
        if response.status_code >= 400:
            self._failed(
                f"HTTP {response.status_code}{await _error_message(response)}",
                response.status_code,
                retry_after_seconds(response.headers.get("retry-after")),
            )
        else:
            self.failures_in_a_row = 0
        return response

    @property
    def endpoint(self) -> Any:
        """The wrapped endpoint (None: the real one). WebSocket calls pass through unrecorded: their
        failures surface as session errors."""
        return self.inner

    def _failed(self, description: str, status: int | None, retry_after_s: float | None) -> None:
        self.failures_in_a_row += 1
        self.last_failure = description
        self.last_failure_status, self.last_retry_after_s = status, retry_after_s

    def summary(self) -> str | None:
        """One sentence on the calls that explain an unfinished run, or None when nothing is notable."""
        parts = []
        if self.failures_in_a_row:
            calls = "model call" if self.failures_in_a_row == 1 else f"{self.failures_in_a_row} model calls"
            parts.append(f"the last {calls} failed (latest: {self.last_failure}); the runtime was still retrying")
        if self._pending:
            waited = time.monotonic() - min(self._pending.values())
            parts.append(f"a model call had been waiting {waited:.1f} s for its answer")
        if not parts and self.calls == 0:
            parts.append("no model call was made")
        return "; ".join(parts) or None


async def _error_message(response: httpx.Response) -> str:
    """': message' from an error response's JSON body, if it has one (bodies of errors only)."""
    try:
        await response.aread()
        body = json.loads(response.content or b"null")
    except Exception:
        return ""
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else error if isinstance(error, str) else None
    return f": {str(message)[:MAX_MESSAGE_CHARS]}" if message else ""
