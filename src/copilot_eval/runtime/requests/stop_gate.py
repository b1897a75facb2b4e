"""No model call after the run has decided to stop.

A stop decided by the runner (tool budget, max_turns, a refused audit) takes effect at the next
abort, but the runtime may already be asking the model for another turn; answering it would let
the agent act past its limit. The gate sits at the request-handler seam and refuses such calls.
"""

from __future__ import annotations

from typing import Any

import httpx
from copilot import CopilotRequestHandler

from copilot_eval.runtime.session.run_control import RunControl

GATE_STATUS = 409


class StopGate(CopilotRequestHandler):
    """Passes model calls to ``inner`` (the SDK's forwarder when None) until the run stops."""

    def __init__(self, inner: Any, control: RunControl) -> None:
        self.inner = inner
        self.control = control
        self.refused = 0

    def _closed(self) -> bool:
        return self.control.stop_reason is not None

    async def send_request(self, request: httpx.Request, ctx: Any) -> httpx.Response:
        """Refuse with 409 once the run is stopping; otherwise answer through ``inner``."""
        if self._closed():
            self.refused += 1
            message = f"copilot-eval stopped this run ({self.control.stop_reason}); no further model calls"
            return httpx.Response(GATE_STATUS, json={"error": {"message": message, "type": "run_stopped"}})
        if self.inner is None:
            return await super().send_request(request, ctx)
        return await self.inner.send_request(request, ctx)

    async def open_websocket(self, ctx: Any) -> Any:
        """WebSocket turns are passed through; the abort that follows a stop ends them."""
        if self.inner is None:
            return await super().open_websocket(ctx)
        return await self.inner.open_websocket(ctx)
