"""ScriptedEndpoint: the per-run request handler that answers model calls from a script."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import httpx
from copilot import CopilotRequestContext, CopilotRequestHandler, CopilotWebSocketHandler

from .answer import Answer, Choice, build_answer, choose_turn
from .chat_wire import chat_body, chat_stream
from .prompt import RequestView, read_chat_request, read_responses_request
from .responses_wire import response_items, responses_body, responses_stream
from .script import Rule, ScriptError

if TYPE_CHECKING:
    from .script import ScriptedError

__all__ = ["ScriptedCall", "ScriptedEndpoint"]


@dataclass(frozen=True)
class ScriptedCall:
    """One model call as the endpoint saw it (no headers: they carry the API key)."""

    wire_api: str
    transport: str
    session_id: str | None
    agent_id: str | None
    prompt: str
    position: int
    rule_index: int | None
    turn_index: int | None
    outcome: str
    """text, tool_calls, error, malformed, cut_off, no_turn_left or no_rule."""


@dataclass(frozen=True)
class Reply:
    """What one call answers, before it is put on a transport."""

    answer: Answer | None
    response_id: str
    delay_s: float
    problem: str | None = None  # a request the endpoint cannot read, or a template it cannot fill


class ScriptedEndpoint(CopilotRequestHandler):
    """Answers the runtime's model requests (HTTP and WebSocket) from a ScriptedModel's rules."""

    def __init__(self, rules: Sequence[Rule], *, model_name: str, working_directory: str | None = None) -> None:
        self._rules = tuple(rules)
        self._model = model_name
        self._working_directory = working_directory
        self._attempts: dict[tuple[Any, ...], int] = {}
        # Responses over a WebSocket send only new input plus previous_response_id: keep each response's history.
        self._histories: dict[str, list[Any]] = {}
        self._calls: list[ScriptedCall] = []

    @property
    def calls(self) -> tuple[ScriptedCall, ...]:
        """Every model call answered so far, in arrival order."""
        return tuple(self._calls)

    async def send_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Answer one HTTP model request (chat completions or Responses, streamed or not)."""
        path = request.url.path.rstrip("/")
        wire = "completions" if path.endswith("/chat/completions") else "responses" if path.endswith("/responses") else None
        try:
            body = json.loads(request.content or b"{}")
        except ValueError:
            body = None
        if wire is None or not isinstance(body, dict):
            what = "a JSON body" if wire else "POST .../chat/completions or .../responses"
            return _error_response(400, f"scripted model: expected {what}", "invalid_request_error")
        reply = self.reply(body, wire_api=wire, ctx=ctx, transport="http")
        if not await wait_unless_cancelled(reply.delay_s, ctx.cancel_event):
            return _error_response(499, "scripted model: request cancelled while waiting", "cancelled")
        answer = reply.answer
        if answer is None:
            return _error_response(500, reply.problem or "scripted model failed", "server_error")
        if answer.error is not None:
            return _scripted_error(answer.error)
        stream = bool(body.get("stream"))
        render = {("completions", False): chat_body, ("completions", True): chat_stream,
                  ("responses", False): responses_body, ("responses", True): responses_stream}[(wire, stream)]
        content = render(answer, model=self._model, response_id=reply.response_id)
        kind = "text/event-stream" if stream else "application/json"
        return httpx.Response(200, headers={"content-type": kind}, content=content)

    async def open_websocket(self, ctx: CopilotRequestContext) -> CopilotWebSocketHandler:
        """Answer Responses over a WebSocket: one `response.create` frame per model call."""
        from .websocket import ScriptedWebSocket

        return ScriptedWebSocket(ctx, self)

    def reply(self, body: dict[str, Any], *, wire_api: str, ctx: CopilotRequestContext, transport: str) -> Reply:
        """Choose and fill the turn for one request body (shared by every transport)."""
        try:
            if wire_api == "completions":
                view = read_chat_request(body)
                items: list[Any] = []
            else:
                items = self._full_input(body)
                view = read_responses_request(items, body.get("instructions"))
        except (TypeError, AttributeError, KeyError) as exc:
            return Reply(None, "resp_unreadable", 0.0, f"scripted model: cannot read the request: {exc}")
        key = (ctx.session_id, ctx.agent_id, view.conversation, view.position)
        choice = choose_turn(self._rules, view, lambda: self._next_attempt(key))
        response_id = f"resp_{view.conversation}_{view.prompt_number}_{view.position}"
        delay = choice.turn.delay_s if choice.turn is not None else 0.0
        try:
            answer = build_answer(choice, view, request_size=len(json.dumps(body)),
                                  working_directory=self._working_directory)
        except ScriptError as exc:
            self._record(wire_api, transport, ctx, view, choice, "error")
            return Reply(None, response_id, delay, f"scripted model: rules[{choice.rule_index}]."
                                                   f"turns[{choice.turn_index}]: {exc}")
        self._record(wire_api, transport, ctx, view, choice, _outcome(choice, answer))
        if transport == "websocket" and answer.error is None and not answer.malformed:
            self._histories[response_id] = items + response_items(answer, response_id=response_id)
        return Reply(answer, response_id, delay)

    def _full_input(self, body: dict[str, Any]) -> list[Any]:
        raw = body.get("input") or []
        items = [{"type": "message", "role": "user", "content": raw}] if isinstance(raw, str) else list(raw)
        previous = body.get("previous_response_id")
        if previous:
            if previous not in self._histories:
                raise KeyError(f"unknown previous_response_id {previous!r}")
            items = self._histories[previous] + items
        return items

    def _next_attempt(self, key: tuple[Any, ...]) -> int:
        attempt = self._attempts.get(key, 0)
        self._attempts[key] = attempt + 1
        return attempt

    def _record(self, wire: str, transport: str, ctx: CopilotRequestContext, view: RequestView,
                choice: Choice, outcome: str) -> None:
        self._calls.append(ScriptedCall(wire, transport, ctx.session_id, ctx.agent_id, view.prompt,
                                        view.position, choice.rule_index, choice.turn_index, outcome))


def _outcome(choice: Choice, answer: Answer) -> str:
    if choice.turn is None:
        return "no_rule" if choice.rule_index is None else "no_turn_left"
    if answer.error is not None:
        return "error"
    if answer.malformed or answer.cut_off:
        return "malformed" if answer.malformed else "cut_off"
    return "tool_calls" if answer.tool_calls else "text"


async def wait_unless_cancelled(seconds: float, cancel_event: asyncio.Event) -> bool:
    """Sleep, but stop as soon as the runtime cancels the request; False when cancelled."""
    if cancel_event.is_set():
        return False
    if seconds <= 0:
        return True
    try:
        await asyncio.wait_for(cancel_event.wait(), timeout=seconds)
    except asyncio.TimeoutError:
        return True
    return False


def error_body(status: int, message: str, kind: str) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message, "type": kind, "code": str(status), "param": None}}


def _error_response(status: int, message: str, kind: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json=error_body(status, message, kind), headers=headers)


def _scripted_error(error: ScriptedError) -> httpx.Response:
    headers = {}
    if error.retry_after is not None:
        headers["retry-after"] = f"{error.retry_after:g}"
    kind = "server_error" if error.status >= 500 else "invalid_request_error"
    return _error_response(error.status, error.message, kind, headers)
