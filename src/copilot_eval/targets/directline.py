"""A Direct Line 3.0 client for Copilot Studio agents, on httpx, receiving by REST polling.

Direct Line has no end-of-turn signal. A turn ends when at least one reply to our activity
(``replyToId``) has arrived and a quiet period passes with nothing new, or on
``endOfConversation``, and always within the turn timeout. ``typing`` activities are only
delivered over the WebSocket stream, so over REST ``typing_seen`` stays unknown (``None``).
"""

from __future__ import annotations

import asyncio
import os
import secrets as random_secrets
import time
from typing import Any
from urllib.parse import urlsplit

from copilot_eval.targets.activities import fill_turn, no_message_error
from copilot_eval.targets.config import DEFAULT_DIRECTLINE_URL, DirectLineTarget
from copilot_eval.targets.directline_stream import ActivityStream
from copilot_eval.targets.evidence import TargetTurn
from copilot_eval.targets.http import Exchanges, TargetHttpError

API_VERSION = "2022-03-01-preview"
REFRESH_MARGIN = 0.5  # refresh once half of the token's lifetime has passed


class DirectLineConversation:
    """One Direct Line conversation: ``open()``, then ``ask(text)`` per turn."""

    def __init__(self, config: DirectLineTarget, exchanges: Exchanges, *, timeout_s: float) -> None:
        self.config, self.exchanges, self.timeout_s = config, exchanges, timeout_s
        self.user_id = config.user_id or f"dl_{random_secrets.token_hex(12)}"
        self.base_url = (config.directline_url or DEFAULT_DIRECTLINE_URL).rstrip("/")
        self.conversation_id: str | None = None
        self._token: str | None = None
        self._token_expires_at: float | None = None
        self._token_lifetime: float | None = None
        self._watermark: str | None = None
        self._seen: set[str] = set()
        self._stream: Any = None  # an ActivityStream when `websocket: true` and it opened
        self._stream_attempt: Any = None  # the stream tried, kept for its problems even when it failed

    # -- connecting ---------------------------------------------------------------------------
    def _take_token(self, body: dict[str, Any]) -> None:
        token = body.get("token")
        if token:
            self._token = str(token)
            self.exchanges.secrets.add(self._token, "DIRECTLINE_TOKEN")
        expires = body.get("expires_in")
        if isinstance(expires, (int, float)) and expires > 0:
            self._token_lifetime = float(expires)
            self._token_expires_at = time.monotonic() + float(expires)

    async def _regional_base(self, token_endpoint: str, deadline: float) -> str:
        parts = urlsplit(token_endpoint)
        url = f"{parts.scheme}://{parts.netloc}/powervirtualagents/regionalchannelsettings?api-version={API_VERSION}"
        try:
            body = (await self.exchanges.send("GET", url, deadline=deadline)).json()
            found = body["channelUrlsById"]["directline"]
        except (TargetHttpError, ValueError, KeyError, TypeError):
            return DEFAULT_DIRECTLINE_URL  # the global URL works for most agents; the failure is recorded
        return str(found).rstrip("/") + "/v3/directline"

    async def open(self) -> list[dict[str, Any]]:
        """Get a token, start the conversation, and return the greeting activities (if asked for)."""
        deadline = time.monotonic() + self.timeout_s
        if self.config.token_endpoint:
            body = (await self.exchanges.send("GET", self.config.token_endpoint, deadline=deadline)).json()
            self._take_token(body)
            if not self.config.directline_url:
                self.base_url = await self._regional_base(self.config.token_endpoint, deadline)
        else:
            secret = os.environ.get(self.config.secret_env or "")
            if not secret:
                raise TargetHttpError(
                    None,
                    None,
                    f"environment variable {self.config.secret_env} (target.secret_env) "
                    "is not set: it must hold the agent's Direct Line secret",
                )
            self.exchanges.secrets.add(secret, self.config.secret_env or "DIRECTLINE_SECRET")
            body = (
                await self.exchanges.send(
                    "POST",
                    f"{self.base_url}/tokens/generate",
                    bearer=secret,
                    json={"user": {"id": self.user_id}},
                    deadline=deadline,
                )
            ).json()
            self._take_token(body)
        if not self._token:
            raise TargetHttpError(None, None, "the token response carried no token")
        body = (
            await self.exchanges.send("POST", f"{self.base_url}/conversations", bearer=self._token, deadline=deadline)
        ).json()
        self._take_token(body)
        self.conversation_id = body.get("conversationId")
        if not self.conversation_id:
            raise TargetHttpError(None, None, "starting the conversation returned no conversationId")
        if self.config.websocket and body.get("streamUrl"):
            stream = ActivityStream(str(body["streamUrl"]), self.exchanges)
            self._stream = stream if await stream.start() else None
            self._stream_attempt = stream
        if not self.config.start_conversation_event:
            return []
        event = {"type": "event", "name": "startConversation", "from": {"id": self.user_id, "role": "user"}}
        greeting = await self._exchange(event, TargetTurn(prompt="(startConversation event)"))
        return greeting.activities

    async def _refresh_if_due(self, deadline: float | None) -> None:
        if self._token_expires_at is None or self._token_lifetime is None:
            return
        if time.monotonic() < self._token_expires_at - self._token_lifetime * (1 - REFRESH_MARGIN):
            return
        body = (
            await self.exchanges.send("POST", f"{self.base_url}/tokens/refresh", bearer=self._token, deadline=deadline)
        ).json()
        self._take_token(body)

    # -- one turn -----------------------------------------------------------------------------
    async def ask(self, text: str) -> TargetTurn:
        """Send ``text`` and collect the agent's replies to it into a turn record."""
        activity = {
            "type": "message",
            "from": {"id": self.user_id, "role": "user"},
            "text": text,
            "textFormat": "plain",
            "locale": "en-US",
        }
        return await self._exchange(activity, TargetTurn(prompt=text))

    async def _exchange(self, activity: dict[str, Any], turn: TargetTurn) -> TargetTurn:
        started = time.monotonic()
        deadline = started + self.timeout_s
        try:
            await self._refresh_if_due(deadline)
            url = f"{self.base_url}/conversations/{self.conversation_id}/activities"
            sent = (await self.exchanges.send("POST", url, bearer=self._token, json=activity, deadline=deadline)).json()
            turn.sent_activity_id = sent.get("id")
            replies, turn.ended_by, first = await self._collect(turn.sent_activity_id, deadline, started)
        except TargetHttpError as exc:
            turn.error, turn.error_code, turn.http_status, turn.ended_by = exc.describe(), exc.code, exc.status, "error"
            turn.duration_ms = round((time.monotonic() - started) * 1000, 1)
            return turn
        turn.latency_ms = round((first - started) * 1000, 1) if first is not None else None
        turn.duration_ms = round((time.monotonic() - started) * 1000, 1)
        fill_turn(turn, replies, typing_observable=self._stream is not None)
        if turn.error is None and not any(a.get("type") == "message" for a in replies):
            turn.error = no_message_error(turn, timeout_s=self.timeout_s, quiet_s=self.config.quiet_s)
        return turn

    @property
    def capture_errors(self) -> list[str]:
        """Problems of the WebSocket stream (the conversation fell back to polling)."""
        return list(self._stream_attempt.problems) if self._stream_attempt is not None else []

    async def close(self) -> None:
        """Close the WebSocket stream, if one was opened."""
        if self._stream is not None:
            await self._stream.close()

    async def _poll(self) -> list[dict[str, Any]]:
        await self._refresh_if_due(None)  # a long turn must not outlive its token
        url = f"{self.base_url}/conversations/{self.conversation_id}/activities"
        if self._watermark is not None:
            url += f"?watermark={self._watermark}"
        body = (await self.exchanges.send("GET", url, bearer=self._token)).json()
        if body.get("watermark") is not None:  # a missing watermark keeps the previous one
            self._watermark = str(body["watermark"])
        streamed = self._stream.drain() if self._stream is not None else []
        fresh = []
        for item in [*streamed, *(body.get("activities") or [])]:
            key = item.get("id")
            if key is not None and key in self._seen:
                continue  # the same activity delivered twice
            if key is not None:
                self._seen.add(key)
            fresh.append(item)
        return fresh

    async def _collect(
        self, sent_id: str | None, deadline: float, started: float
    ) -> tuple[list[dict[str, Any]], Any, float | None]:
        replies: list[dict[str, Any]] = []
        first: float | None = None
        last_new = time.monotonic()
        await asyncio.sleep(min(0.3, self.config.poll_interval_s))
        while True:
            for item in await self._poll():
                sender = item.get("from") or {}
                if sender.get("id") == self.user_id or sender.get("role") == "user":
                    continue  # our own echo
                if sent_id is not None and item.get("replyToId") != sent_id:
                    continue
                replies.append(item)
                first = first or time.monotonic()
                last_new = time.monotonic()
                if item.get("type") == "endOfConversation":
                    return replies, "end_of_conversation", first
            now = time.monotonic()
            if replies and now - last_new >= self.config.quiet_s:
                return replies, "quiet", first
            if now >= deadline:
                return replies, "timeout", first
            pause = min(self.config.poll_interval_s, max(0.0, deadline - now))
            if self._stream is not None and self._stream.alive:
                await self._stream.wait(pause)  # wake as soon as the stream delivers
            else:
                await asyncio.sleep(pause)


__all__ = ["API_VERSION", "DirectLineConversation"]
