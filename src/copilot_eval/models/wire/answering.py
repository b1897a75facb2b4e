"""AnsweringEndpoint: the request handler that answers model calls in-process from computed Answers.

The wire work (reading the path and body, waiting, rendering chat completions or Responses,
streamed or not, over HTTP or a WebSocket) is the same whoever decides the answer; subclasses
(the ScriptedModel's endpoint, the FunctionModel's endpoint) only implement ``answer``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from copilot import CopilotRequestContext, CopilotRequestHandler, CopilotWebSocketHandler

from .answer import Answer, ScriptedHttpError
from .chat import chat_body, chat_stream
from .reply import Reply, error_body, wait_unless_cancelled
from .responses import response_items, responses_body, responses_stream
from .websocket import AnsweringWebSocket

__all__ = ["AnsweringEndpoint", "read_model_request", "wire_api_of"]

_RENDERERS = {
    ("completions", False): chat_body,
    ("completions", True): chat_stream,
    ("responses", False): responses_body,
    ("responses", True): responses_stream,
}


def wire_api_of(path: str) -> str | None:
    """``completions`` or ``responses`` from a request path, None for any other path."""
    path = path.rstrip("/")
    if path.endswith("/chat/completions"):
        return "completions"
    return "responses" if path.endswith("/responses") else None


def read_model_request(request: httpx.Request) -> tuple[str | None, Any]:
    """The wire API of a model request (from its path) and its JSON body (None when unreadable)."""
    try:
        body = json.loads(request.content or b"{}")
    except ValueError:
        body = None
    return wire_api_of(request.url.path), body


class AnsweringEndpoint(CopilotRequestHandler):
    """Answers the runtime's model requests (HTTP and WebSocket) with what ``answer`` decides."""

    def __init__(self, *, model_name: str, label: str = "scripted model") -> None:
        self._model = model_name
        self._label = label  # how error answers name the answerer
        # Responses over a WebSocket send only new input plus previous_response_id: keep each response's history.
        self._histories: dict[str, list[Any]] = {}

    @property
    def model_name(self) -> str:
        """The model name written into every answer."""
        return self._model

    @property
    def label(self) -> str:
        """How error answers name the answerer (``scripted model``, ``function model``)."""
        return self._label

    async def answer(self, body: dict[str, Any], *, wire_api: str, ctx: CopilotRequestContext, transport: str) -> Reply:
        """The reply to one request body; subclasses decide it."""
        raise NotImplementedError

    async def send_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Answer one HTTP model request (chat completions or Responses, streamed or not)."""
        wire, body = read_model_request(request)
        if wire is None or not isinstance(body, dict):
            what = "a JSON body" if wire else "POST .../chat/completions or .../responses"
            return error_response(400, f"{self._label}: expected {what}", "invalid_request_error")
        reply = await self.answer(body, wire_api=wire, ctx=ctx, transport="http")
        if not await wait_unless_cancelled(reply.delay_s, ctx.cancel_event):
            return error_response(499, f"{self._label}: request cancelled while waiting", "cancelled")
        answer = reply.answer
        if answer is None:
            return error_response(500, reply.problem or f"{self._label} failed", "server_error")
        if answer.error is not None:
            return _http_error(answer.error)
        stream = bool(body.get("stream"))
        content = _RENDERERS[(wire, stream)](answer, model=self._model, response_id=reply.response_id)
        kind = "text/event-stream" if stream else "application/json"
        return httpx.Response(200, headers={"content-type": kind}, content=content)

    async def open_websocket(self, ctx: CopilotRequestContext) -> CopilotWebSocketHandler:
        """Answer Responses over a WebSocket: one `response.create` frame per model call."""
        return AnsweringWebSocket(ctx, self)

    def full_input(self, body: dict[str, Any]) -> list[Any]:
        """The whole Responses input of a request, joined with the history its previous_response_id names."""
        raw = body.get("input") or []
        items = [{"type": "message", "role": "user", "content": raw}] if isinstance(raw, str) else list(raw)
        previous = body.get("previous_response_id")
        if previous:
            if previous not in self._histories:
                raise KeyError(f"unknown previous_response_id {previous!r}")
            items = self._histories[previous] + items
        return items

    def remember(self, response_id: str, items: list[Any], answer: Answer, transport: str) -> None:
        """Keep a WebSocket answer's conversation, so the next frame can name it as previous_response_id."""
        if transport == "websocket" and answer.error is None and not answer.malformed:
            self._histories[response_id] = items + response_items(answer, response_id=response_id)


def error_response(status: int, message: str, kind: str, headers: dict[str, str] | None = None) -> httpx.Response:
    """An HTTP error response with an OpenAI-style body."""
    return httpx.Response(status, json=error_body(status, message, kind), headers=headers)


def _http_error(error: ScriptedHttpError) -> httpx.Response:
    headers = {}
    if error.retry_after is not None:
        headers["retry-after"] = f"{error.retry_after:g}"
    kind = "server_error" if error.status >= 500 else "invalid_request_error"
    return error_response(error.status, error.message, kind, headers)
