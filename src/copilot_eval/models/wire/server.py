"""Serving an answering endpoint (scripted or function-backed) on loopback HTTP, so the runtime's real BYOK path can be exercised."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from copilot import CopilotRequestContext
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from copilot_eval.loopback_server import bound_port, serve_in_loop, stop_uvicorn

from .answering import AnsweringEndpoint
from .websocket import answer_frame

__all__ = ["ScriptedServer"]


class ScriptedServer:
    """An async context manager running uvicorn in the current event loop; `base_url` ends in `/v1`."""

    def __init__(self, endpoint: AnsweringEndpoint, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.endpoint = endpoint
        self._host, self._port = host, port
        self._server: Any = None
        self._task: asyncio.Task[None] | None = None
        self._cancels: set[asyncio.Event] = set()
        self.base_url = ""

    async def __aenter__(self) -> ScriptedServer:
        self._server, self._task = await serve_in_loop(
            self._app(), host=self._host, port=self._port, ws="websockets-sansio"
        )
        self.base_url = f"http://{self._host}:{bound_port(self._server)}/v1"
        return self

    async def __aexit__(self, *exc: object) -> None:
        for event in self._cancels:  # end scripted delays now instead of waiting them out
            event.set()
        if self._server is not None and self._task is not None:
            await stop_uvicorn(self._server, self._task)

    def _context(self, url: str, transport: str, cancel: asyncio.Event) -> CopilotRequestContext:
        # Over HTTP there is no session id: the endpoint keys its state by the conversation itself.
        return CopilotRequestContext(request_id="", transport=transport, url=url, headers={}, cancel_event=cancel)

    def _app(self) -> Any:
        async def http(request: Request) -> Response:
            body = await request.body()
            cancel = asyncio.Event()
            self._cancels.add(cancel)

            async def watch_disconnect() -> None:
                # After the body is read, the next ASGI message is the client going away.
                while (await request.receive())["type"] != "http.disconnect":
                    pass
                cancel.set()

            watcher = asyncio.create_task(watch_disconnect())
            try:
                # Headers are not passed on: they carry the API key and the script does not need them.
                outgoing = httpx.Request("POST", str(request.url), content=body)
                answer = await self.endpoint.send_request(outgoing, self._context(str(request.url), "http", cancel))
            finally:
                watcher.cancel()
                self._cancels.discard(cancel)
            return Response(answer.content, status_code=answer.status_code, headers=dict(answer.headers))

        async def websocket(ws: WebSocket) -> None:
            await ws.accept()
            cancel = asyncio.Event()
            self._cancels.add(cancel)
            ctx = self._context(str(ws.url), "websocket", cancel)
            try:
                while True:
                    data = await ws.receive_text()
                    if not await answer_frame(self.endpoint, data, ctx, ws.send_text):
                        await ws.close(code=1011)
                        return
            except WebSocketDisconnect:
                return
            finally:
                self._cancels.discard(cancel)

        return Starlette(
            routes=[
                Route("/{path:path}", http, methods=["POST"]),
                WebSocketRoute("/{path:path}", websocket),
            ]
        )
