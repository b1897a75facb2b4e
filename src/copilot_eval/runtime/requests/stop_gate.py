"""No model call after the run has decided to stop.

A stop decided by the runner (tool or usage budget, max_turns, a refused audit, the session's
credit limit) takes effect at the next
abort, but the runtime may already be asking the model for another turn; answering it would let
the agent act past its limit. The gate sits at the request-handler seam and refuses such calls.
"""

from __future__ import annotations

from typing import Any

import httpx

from copilot_eval.runtime.process.forwarding import ForwardingHandler
from copilot_eval.runtime.requests.run_control import RunControl

GATE_STATUS = 409


class StopGate(ForwardingHandler):
    """Passes model calls to ``inner`` (the SDK's forwarder when None) until the run stops."""

    def __init__(self, inner: Any, control: RunControl) -> None:
        super().__init__(inner)
        self.control = control
        self.refused = 0

    def _closed(self) -> bool:
        return self.control.stop_reason is not None

    async def send_request(self, request: httpx.Request, ctx: Any) -> httpx.Response:
        """Refuse with 409 once the run is stopping; otherwise answer through ``inner``."""
        if self._closed():
            self.refused += 1
            self.control.refused_model_calls += 1
            message = f"copilot-eval stopped this run ({self.control.stop_reason}); no further model calls"
            return httpx.Response(GATE_STATUS, json={"error": {"message": message, "type": "run_stopped"}})
        return await self.forward_request(request, ctx)

    # WebSocket turns are passed through (the inherited open_websocket); the abort that follows a stop ends them.
