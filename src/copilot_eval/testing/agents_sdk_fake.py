"""A faithful local Copilot Studio Agents SDK (Direct-to-Engine) endpoint with a scripted agent.

``POST .../bots/{schema}/conversations`` starts a conversation and ``POST .../conversations/{id}``
plays one turn; both answer with a server-sent event stream (``event: activity`` frames, one
Activity JSON per ``data:`` line, then ``event: end``) and the ``x-ms-conversationid`` header.
The official ``microsoft-agents-copilotstudio-client`` can be pointed at it with
``direct_connect_url=fake.direct_connect_url``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from copilot_eval.testing.fake_agent import FakeAgent, FakeEndpoint, Reply

# Starlette is imported when a fake builds its app or answers: `import copilot_eval.testing` (the scripts, the
# fakes' classes) must not load it.

BOTS = "/copilotstudio/dataverse-backed/authenticated/bots"


class FakeAgentsSdk(FakeEndpoint):
    """An ASGI app: the Direct-to-Engine conversation endpoint of ``agent``.

    ``token`` is the bearer token it accepts (401 otherwise). ``hold_open_s`` keeps every stream
    open that long after ``event: end`` (what makes the official Python client wait).
    ``requests`` records (method, path, body) of each request.
    """

    def __init__(
        self,
        agent: FakeAgent,
        *,
        token: str = "fake-user-token",
        schema: str = "cr123_fakeAgent",
        hold_open_s: float = 0.0,
        send_conversation_header: bool = True,
    ) -> None:
        self.agent, self.token, self.schema = agent, token, schema
        self.hold_open_s, self.send_conversation_header = hold_open_s, send_conversation_header
        self.url = ""
        self.requests: list[tuple[str, str, Any]] = []
        self.conversations: set[str] = set()
        self._fault_counts: dict[int, int] = {}
        self._app = self._build()

    @property
    def direct_connect_url(self) -> str:
        """The agent URL (``.../bots/<schema>``) clients append ``/conversations`` to."""
        return f"{self.url}{BOTS}/{self.schema}"

    def _activity(self, conversation_id: str, body: dict[str, Any], reply_to: str | None) -> dict[str, Any]:
        activity = {
            **body,
            "id": secrets.token_hex(8),
            "channelId": "pva-studio",
            "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "from": {"id": "fake-bot", "name": self.agent.name, "role": "bot"},
            "conversation": {"id": conversation_id},
        }
        if reply_to:
            activity["replyToId"] = reply_to
        return activity

    async def _frames(self, conversation_id: str, reply: Reply, reply_to: str | None) -> AsyncIterator[bytes]:
        for step in reply.steps:
            await asyncio.sleep(step.delay_s)
            if step.raw is not None:
                yield f"event: activity\ndata: {step.raw}\n\n".encode()
            elif step.activity is not None:
                data = json.dumps(self._activity(conversation_id, step.activity, reply_to), separators=(",", ":"))
                yield f"event: activity\ndata: {data}\n\n".encode()
        if reply.end_of_stream:
            yield b"event: end\ndata: end of stream\n\n"
        if self.hold_open_s:
            await asyncio.sleep(self.hold_open_s)

    def _fault(self, reply: Reply) -> Any:
        from starlette.responses import JSONResponse

        fault = self._due_fault(reply)
        if fault is None:
            return None
        headers = {"Retry-After": f"{fault.retry_after:g}"} if fault.retry_after is not None else None
        return JSONResponse(
            {"error": {"code": fault.code or "Error", "message": fault.message}},
            status_code=fault.status,
            headers=headers,
        )

    def _build(self) -> Any:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response, StreamingResponse
        from starlette.routing import Route

        def check(request: Request) -> Response | None:
            if request.path_params["schema"] != self.schema:
                return JSONResponse({"error": {"code": "BotNotFound", "message": "unknown agent"}}, status_code=404)
            if request.headers.get("authorization") != f"Bearer {self.token}":
                return JSONResponse({"error": {"code": "Unauthorized", "message": "bad token"}}, status_code=401)
            return None

        def stream(conversation_id: str, frames: AsyncIterator[bytes]) -> Response:
            headers = {"x-ms-conversationid": conversation_id} if self.send_conversation_header else {}
            return StreamingResponse(frames, media_type="text/event-stream", headers=headers)

        async def create(request: Request) -> Response:
            body = await request.json() if await request.body() else {}
            self.requests.append((request.method, request.url.path, body))
            if (problem := check(request)) is not None:
                return problem
            conversation_id = body.get("conversationId") or secrets.token_hex(8)
            self.conversations.add(conversation_id)
            greeting = (
                self.agent.greeting if body.get("emitStartConversationEvent") and self.agent.greeting else Reply()
            )
            return stream(conversation_id, self._frames(conversation_id, greeting, None))

        async def turn(request: Request) -> Response:
            body = await request.json()
            self.requests.append((request.method, request.url.path, body))
            if (problem := check(request)) is not None:
                return problem
            conversation_id = request.path_params["cid"]
            if conversation_id not in self.conversations:
                return JSONResponse({"error": {"code": "ConversationNotFound", "message": "unknown"}}, status_code=404)
            activity = body.get("activity") if isinstance(body, dict) else None
            if not isinstance(activity, dict) or activity.get("type") not in ("message", "event", "invoke"):
                return JSONResponse({"error": {"code": "BadRequest", "message": "body.activity"}}, status_code=400)
            reply = self.agent.reply_for(activity.get("text") or "")
            if (problem := self._fault(reply)) is not None:
                return problem
            return stream(conversation_id, self._frames(conversation_id, reply, activity.get("id")))

        return Starlette(
            routes=[
                Route(BOTS + "/{schema}/conversations", create, methods=["POST"]),
                Route(BOTS + "/{schema}/conversations/{cid}", turn, methods=["POST"]),
            ]
        )


__all__ = ["FakeAgentsSdk"]
