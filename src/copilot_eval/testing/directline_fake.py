"""A faithful local Direct Line 3.0 service with a scripted Copilot Studio agent behind it.

It speaks the REST surface a Copilot Studio agent's Direct Line channel offers: the Copilot
Studio token endpoint and regional channel settings, secret-to-token exchange, token refresh,
starting a conversation, sending one activity, and receiving with a watermark (the user's echo
included, ``typing`` excluded, as the real service does over REST). Every request is recorded.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from copilot_eval.testing.fake_agent import FakeAgent, FakeEndpoint, Reply

# Starlette is imported when a fake builds its app or answers: `import copilot_eval.testing` (the scripts, the
# fakes' classes) must not load it.

API = "/v3/directline"


def _json_response(content: Any, status_code: int = 200, headers: dict[str, str] | None = None) -> Any:
    """A JSON answer escaped to ASCII, as the service sends it: an agent's lone surrogate arrives as ``\\ud800``."""
    from starlette.responses import Response

    return Response(json.dumps(content), status_code=status_code, headers=headers, media_type="application/json")


def _error(status: int, code: str, message: str, retry_after: float | None = None) -> Any:
    headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else None
    return _json_response({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


@dataclass
class _Conversation:
    id: str
    log: list[dict[str, Any]] = field(default_factory=list)
    started: bool = False
    seq: itertools.count = field(default_factory=lambda: itertools.count(1))


class FakeDirectLine(FakeEndpoint):
    """An ASGI app: a Direct Line 3.0 service whose bot follows ``agent``'s script.

    ``secret`` enables the secured path (``tokens/generate``); ``token_lifetime_s`` makes tokens
    expire (403 ``TokenExpired`` afterwards); ``websocket=False`` refuses stream connections.
    ``requests`` records (method, path, had_auth).
    """

    def __init__(
        self,
        agent: FakeAgent,
        *,
        secret: str | None = None,
        token_lifetime_s: float = 3600,
        schema: str = "cr123_fakeAgent",
        websocket: bool = True,
    ) -> None:
        self.agent, self.secret, self.token_lifetime_s, self.schema = agent, secret, token_lifetime_s, schema
        self.websocket = websocket
        self.url = ""
        self.requests: list[tuple[str, str, bool]] = []
        self.conversations: dict[str, _Conversation] = {}
        self._tokens: dict[str, tuple[str, float]] = {}
        self._fault_counts: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sockets: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._app = self._build()

    # -- addresses -------------------------------------------------------------------------
    @property
    def token_endpoint(self) -> str:
        """The Copilot Studio token endpoint of this fake agent."""
        return (
            f"{self.url}/powervirtualagents/botsbyschema/{self.schema}/directline/token?api-version=2022-03-01-preview"
        )

    @property
    def directline_url(self) -> str:
        """The Direct Line base URL (``.../v3/directline``)."""
        return f"{self.url}{API}"

    # -- tokens ----------------------------------------------------------------------------
    def _issue(self, conversation_id: str | None = None) -> dict[str, Any]:
        conversation_id = conversation_id or secrets.token_hex(8)
        self.conversations.setdefault(conversation_id, _Conversation(conversation_id))
        token = "dlt_" + secrets.token_urlsafe(24)
        self._tokens[token] = (conversation_id, time.monotonic() + self.token_lifetime_s)
        return {"token": token, "expires_in": self.token_lifetime_s, "conversationId": conversation_id}

    def _auth(self, request: Any, conversation_id: str | None = None) -> Any:
        header = request.headers.get("authorization", "")
        bearer = header[7:] if header.startswith("Bearer ") else None
        if bearer is not None and self.secret is not None and bearer == self.secret:
            return None
        if bearer not in self._tokens:
            return _error(401, "BadArgument", "missing or unknown bearer token")
        bound, expires = self._tokens[bearer]
        if time.monotonic() >= expires:
            return _error(403, "TokenExpired", "the token has expired")
        if conversation_id is not None and bound != conversation_id:
            return _error(403, "BadArgument", "the token is not valid for this conversation")
        return None

    # -- bot side --------------------------------------------------------------------------
    def _stamp(self, conversation: _Conversation, activity: dict[str, Any], **fields: Any) -> dict[str, Any]:
        stamped = {
            **activity,
            **fields,
            "id": f"{conversation.id}|{next(conversation.seq):07d}",
            "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "channelId": "directline",
            "conversation": {"id": conversation.id},
        }
        conversation.log.append(stamped)
        if conversation.id in self._sockets:  # typing included: the stream is how typing is delivered
            self._sockets[conversation.id].put_nowait(stamped)
        return stamped

    async def _play(self, conversation: _Conversation, reply: Reply, reply_to: str) -> None:
        for step in reply.steps:
            await asyncio.sleep(step.delay_s)
            if step.activity is not None:
                self._stamp(
                    conversation,
                    step.activity,
                    replyToId=reply_to,
                    **{"from": {"id": "fake-bot", "name": self.agent.name, "role": "bot"}},
                )

    def _fault(self, reply: Reply) -> Any:
        fault = self._due_fault(reply)
        if fault is None:
            return None
        code = fault.code or {500: "InternalServerError", 502: "BotError", 429: "TooManyRequests"}.get(
            fault.status, "Error"
        )
        return _error(fault.status, code, fault.message, fault.retry_after)

    # -- the app: each endpoint a method, served by the routes below ---------------------------------
    def _note(self, request: Any) -> None:
        """Record a request as (method, path, had_auth)."""
        self.requests.append((request.method, request.url.path, "authorization" in request.headers))

    async def _opened(self, request: Any) -> Any:
        """The conversation a request names, or the error response a real channel gives."""
        self._note(request)
        conversation = self.conversations.get(request.path_params["cid"])
        if conversation is None:
            return _error(404, "BadArgument", "unknown conversation")
        if (problem := self._auth(request, conversation.id)) is not None:
            return problem
        return conversation

    async def _token(self, request: Any) -> Any:
        """The Copilot Studio token endpoint: a token for the agent whose schema name the path gives."""
        self._note(request)
        if request.path_params["schema"] != self.schema:
            return _error(404, "BotNotFound", "no agent with this schema name")
        return _json_response(self._issue())

    async def _regional(self, request: Any) -> Any:
        """The regional channel settings: where this Direct Line lives."""
        self._note(request)
        return _json_response({"channelUrlsById": {"directline": f"{self.url}/"}})

    async def _generate(self, request: Any) -> Any:
        """``tokens/generate``: a conversation and its token, for the Direct Line secret."""
        self._note(request)
        header = request.headers.get("authorization", "")
        if self.secret is None or header != f"Bearer {self.secret}":
            return _error(401, "BadArgument", "a Direct Line secret is required")
        body = await request.json() if await request.body() else {}
        user = (body.get("user") or {}).get("id")
        if user is not None and not str(user).startswith("dl_"):
            return _error(400, "BadArgument", "user ids bound into tokens must start with dl_")
        return _json_response(self._issue())

    async def _refresh(self, request: Any) -> Any:
        """``tokens/refresh``: a fresh token for the same conversation."""
        self._note(request)
        if (problem := self._auth(request)) is not None:
            return problem
        bound, _ = self._tokens[request.headers["authorization"][7:]]
        return _json_response(self._issue(bound))

    async def _start(self, request: Any) -> Any:
        """Start (or resume) the conversation a token is bound to; the secret starts a new one."""
        self._note(request)
        if (problem := self._auth(request)) is not None:
            return problem
        bearer = request.headers["authorization"][7:]
        if bearer not in self._tokens:  # the secret itself: a new conversation and its own token
            bearer = self._issue()["token"]
        bound = self._tokens[bearer][0]
        conversation = self.conversations[bound]
        status = 200 if conversation.started else 201
        conversation.started = True
        return _json_response(
            {
                "conversationId": bound,
                "token": bearer,
                "expires_in": self.token_lifetime_s,
                "streamUrl": f"ws://{self.url[7:]}{API}/conversations/{bound}/stream?t={bearer}",
            },
            status_code=status,
        )

    async def _post_activity(self, request: Any) -> Any:
        """Take one activity, answer it as the agent's script says, and return its id."""
        conversation = await self._opened(request)
        if not isinstance(conversation, _Conversation):
            return conversation  # the 404 or 401/403 a real channel gives
        activity = await request.json()
        if not isinstance(activity, dict) or not activity.get("type") or not (activity.get("from") or {}).get("id"):
            return _error(400, "MissingProperty", "an activity needs type and from.id")
        if activity["type"] == "event" and activity.get("name") == "startConversation":
            reply = self.agent.greeting or Reply()
        else:
            reply = self.agent.reply_for(activity.get("text") or "")
        if (problem := self._fault(reply)) is not None:
            return problem
        echo = self._stamp(conversation, activity)
        task = asyncio.ensure_future(self._play(conversation, reply, echo["id"]))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return _json_response({"id": echo["id"]})

    async def _get_activities(self, request: Any) -> Any:
        """The conversation's activities after ``watermark`` (``typing`` left out, as over REST)."""
        conversation = await self._opened(request)
        if not isinstance(conversation, _Conversation):
            return conversation  # the 404 or 401/403 a real channel gives
        mark = int(request.query_params.get("watermark") or 0)
        visible = [(n, a) for n, a in enumerate(conversation.log, start=1) if n > mark and a.get("type") != "typing"]
        watermark = str(len(conversation.log)) if conversation.log else None
        return _json_response({"activities": [a for _, a in visible], "watermark": watermark})

    async def _stream(self, socket: Any) -> None:
        """The conversation's WebSocket stream: what happened so far, then each new activity."""
        from starlette.websockets import WebSocketDisconnect

        conversation = self.conversations.get(socket.path_params["cid"])
        bound = self._tokens.get(socket.query_params.get("t", ""))
        self.requests.append(("WEBSOCKET", socket.url.path, bound is not None))
        if not self.websocket or conversation is None or bound is None or bound[0] != conversation.id:
            await socket.close(code=1008, reason="unknown conversation or token, or streaming off")
            return
        await socket.accept()
        if conversation.id in self._sockets:
            await socket.close(code=1000, reason="collision")  # one stream per conversation
            return
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._sockets[conversation.id] = queue
        try:
            await socket.send_text("")  # a keep-alive frame, as the service sends them
            if conversation.log:  # what happened before the socket opened is replayed
                await socket.send_text(
                    json.dumps({"activities": conversation.log, "watermark": str(len(conversation.log))})
                )
            closed = asyncio.ensure_future(socket.receive())  # the client going away ends the stream
            while True:
                arrival = asyncio.ensure_future(queue.get())
                await asyncio.wait({closed, arrival}, return_when=asyncio.FIRST_COMPLETED)
                if closed.done():
                    arrival.cancel()
                    break
                await socket.send_text(
                    json.dumps({"activities": [arrival.result()], "watermark": str(len(conversation.log))})
                )
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self._sockets.pop(conversation.id, None)

    def _build(self) -> Any:
        from starlette.applications import Starlette
        from starlette.routing import Route, WebSocketRoute

        return Starlette(
            routes=[
                WebSocketRoute(f"{API}/conversations/{{cid}}/stream", self._stream),
                Route("/powervirtualagents/botsbyschema/{schema}/directline/token", self._token, methods=["GET"]),
                Route("/powervirtualagents/regionalchannelsettings", self._regional, methods=["GET"]),
                Route(f"{API}/tokens/generate", self._generate, methods=["POST"]),
                Route(f"{API}/tokens/refresh", self._refresh, methods=["POST"]),
                Route(f"{API}/conversations", self._start, methods=["POST"]),
                Route(f"{API}/conversations/{{cid}}/activities", self._post_activity, methods=["POST"]),
                Route(f"{API}/conversations/{{cid}}/activities", self._get_activities, methods=["GET"]),
            ]
        )


__all__ = ["FakeDirectLine"]
