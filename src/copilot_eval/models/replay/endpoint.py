"""CassetteEndpoint: the request handler that records model calls to a cassette, or serves them from it.

It sits innermost in a run's request-handler chain, in front of the real model (or of another
in-process endpoint). Recording forwards each call, reads the whole answer, stores it and passes it
on; replaying answers from the cassette and never touches the network.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from copilot import CopilotRequestContext, CopilotRequestHandler, CopilotWebSocketHandler

from copilot_eval.models.wire.answering import error_response, read_model_request

from .cassette import KEPT_RESPONSE_HEADERS, Exchange
from .normalise import WORKING_DIRECTORY, normalise_body, request_key, scrub_secrets
from .store import Cassette, Mode
from .websocket import RecordingWebSocket, ReplayWebSocket

__all__ = ["MISMATCH_STATUS", "CassetteEndpoint"]

# 400: the runtime does not retry it, so a request with no recording ends the run at once.
MISMATCH_STATUS = 400


class CassetteEndpoint(CopilotRequestHandler):
    """Records to or replays from a cassette; ``inner`` (None: the real endpoint) answers what is recorded."""

    def __init__(
        self,
        cassette: Cassette | Callable[[dict[str, Any], str], Cassette],
        *,
        mode: Mode,
        inner: Any = None,
        working_directory: str | None = None,
    ) -> None:
        # A callable chooses the cassette from the first request (body, wire_api): one file per case.
        self._cassette = cassette if isinstance(cassette, Cassette) else None
        self._choose = None if isinstance(cassette, Cassette) else cassette
        self.mode = mode
        self.inner = inner
        self.working_directory = working_directory

    def cassette_for(self, body: dict[str, Any], wire_api: str) -> Cassette:
        """This run's cassette (chosen at its first request when a chooser was given)."""
        if self._cassette is None:
            assert self._choose is not None
            self._cassette = self._choose(body, wire_api)
        return self._cassette

    def normalise(self, body: Any) -> Any:
        """The request body as it is stored and matched."""
        return normalise_body(body, self.working_directory)

    def stored_text(self, text: str) -> str:
        """An answer as stored: this run's working directory as a placeholder, secrets removed."""
        if self.working_directory:
            text = text.replace(self.working_directory, WORKING_DIRECTORY)
        return scrub_secrets(text)

    def served_text(self, text: str) -> str:
        """A stored answer for this run: the placeholder becomes this run's working directory."""
        return text.replace(WORKING_DIRECTORY, self.working_directory) if self.working_directory else text

    async def send_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Serve the recorded answer, or (recording) forward, store and return the real one."""
        wire, body = read_model_request(request)
        if wire is None or not isinstance(body, dict):
            if self.mode == "replay":  # offline: there is nothing to pass it on to
                return error_response(
                    MISMATCH_STATUS,
                    f"copilot-eval replay: cannot answer {request.method} "
                    f"{request.url.path} (not a JSON model request)",
                    "replay_mismatch",
                )
            return await self._forward(request, ctx)  # nothing a cassette can key: pass it on untouched
        cassette = self.cassette_for(body, wire)
        stored = self.normalise(body)
        key = request_key(stored)
        exchange = cassette.take(key)
        if exchange is not None:
            return self._served(exchange)
        if cassette.mode == "replay":
            message = "copilot-eval replay: " + cassette.mismatch(stored, wire_api=wire, transport="http")
            return error_response(MISMATCH_STATUS, message, "replay_mismatch")
        response = await self._forward(request, ctx)
        await response.aread()
        headers = {name: response.headers[name] for name in KEPT_RESPONSE_HEADERS if name in response.headers}
        text = response.content.decode("utf-8", errors="replace")
        cassette.add(
            Exchange(
                index=0,
                key=key,
                wire_api=wire,
                transport="http",
                request=stored,
                path=request.url.path,
                response={"status": response.status_code, "headers": headers, "body": self.stored_text(text)},
            )
        )
        # The body was read whole and decoded: hand it on without the transfer headers that described the raw one.
        return httpx.Response(response.status_code, headers=headers, content=response.content)

    async def open_websocket(self, ctx: CopilotRequestContext) -> CopilotWebSocketHandler:
        """Replay: a handler that answers from the cassette; recording: the real connection, tapped."""
        if self.mode == "replay":
            return ReplayWebSocket(ctx, self)
        inner = await (
            CopilotRequestHandler.open_websocket(self, ctx) if self.inner is None else self.inner.open_websocket(ctx)
        )
        return RecordingWebSocket(ctx, inner, self)

    def _served(self, exchange: Exchange) -> httpx.Response:
        response = exchange.response
        content = self.served_text(response.get("body", "")).encode("utf-8")
        return httpx.Response(response.get("status", 200), headers=response.get("headers") or {}, content=content)

    async def _forward(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        if self.inner is None:
            return await CopilotRequestHandler.send_request(self, request, ctx)
        return await self.inner.send_request(request, ctx)
