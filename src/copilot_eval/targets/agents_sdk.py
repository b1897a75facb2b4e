"""A client of the Copilot Studio Agents SDK endpoint (Direct-to-Engine), on httpx.

Each request is a POST answered by a server-sent event stream: ``event: activity`` frames whose
``data`` is one Activity JSON, then ``event: end``. The turn ends at ``end`` (we do not wait for
the server to close, unlike the official Python client), when the stream closes, or at the hard
turn timeout. Lines have no length limit, and one unreadable activity becomes a capture error
instead of aborting the turn.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx

from copilot_eval.targets.activities import fill_turn, no_message_error
from copilot_eval.targets.config import CopilotStudioTarget
from copilot_eval.targets.evidence import TargetTurn, TurnEnd
from copilot_eval.targets.http import Exchanges, TargetHttpError, error_of

API_VERSION = "2022-03-01-preview"
CONVERSATION_HEADER = "x-ms-conversationid"


class _Stream:
    """What one SSE response delivered: activities, how it ended, unreadable frames."""

    def __init__(self) -> None:
        self.activities: list[dict[str, Any]] = []
        self.ended_by: TurnEnd = "stream_closed"
        self.problems: list[str] = []
        self.first_at: float | None = None
        self.conversation_id: str | None = None


async def _read_events(response: httpx.Response, stream: _Stream) -> None:
    event: str | None = None
    data: list[str] = []
    async for line in response.aiter_lines():
        if line.startswith(":"):
            continue  # an SSE comment / keep-alive
        if line == "":
            if event == "end":
                stream.ended_by = "end_event"
                return
            if data:
                _take_frame(event, "\n".join(data), stream)
            event, data = None, []
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
            if value == "end":  # some servers never send the blank line after `end`
                stream.ended_by = "end_event"
                return
        elif field == "data":
            data.append(value)
    if data:
        _take_frame(event, "\n".join(data), stream)


def _take_frame(event: str | None, data: str, stream: _Stream) -> None:
    if event not in (None, "activity"):
        return
    try:
        activity = json.loads(data)
    except ValueError as exc:
        stream.problems.append(f"unreadable activity frame ({exc}): {data[:200]}")
        return
    if not isinstance(activity, dict):
        stream.problems.append(f"activity frame is not a JSON object: {data[:200]}")
        return
    stream.first_at = stream.first_at or time.monotonic()
    stream.activities.append(activity)


class AgentsSdkConversation:
    """One Direct-to-Engine conversation: ``open()``, then ``ask(text)`` per turn."""

    def __init__(
        self, config: CopilotStudioTarget, exchanges: Exchanges, *, timeout_s: float, token: Callable[[], str]
    ) -> None:
        self.config, self.exchanges, self.timeout_s = config, exchanges, timeout_s
        self._token_source = token
        self.base_url = config.conversations_url()
        self.conversation_id: str | None = None
        self.capture_errors: list[str] = []

    async def _token(self) -> str:
        # The MSAL cache may refresh over the network, synchronously: keep it off the event loop.
        value = await asyncio.to_thread(self._token_source)
        self.exchanges.secrets.add(value, getattr(self.config, "token_env", None) or "ENTRA_TOKEN")
        return value

    async def _post(self, url: str, body: dict[str, Any]) -> tuple[_Stream, httpx.Headers]:
        stream = _Stream()
        started = time.monotonic()
        full = f"{url}?api-version={API_VERSION}"
        token = await self._token()
        try:
            async with asyncio.timeout(self.timeout_s):
                async with self.exchanges.stream(full, bearer=token, json=body) as response:
                    if response.status_code != 200:
                        await response.aread()
                        code, message = error_of(response)
                        self.exchanges.record("POST", full, started, response.status_code, code, message)
                        raise TargetHttpError(response.status_code, code, self.exchanges.secrets.scrub(message))
                    self.exchanges.record("POST", full, started, 200)
                    await _read_events(response, stream)
                    headers = response.headers
        except TimeoutError:
            stream.ended_by = "timeout"
            self.exchanges.record("POST", full, started, None, message=f"turn timeout after {self.timeout_s:g} s")
            headers = httpx.Headers()
        except httpx.HTTPError as exc:
            if not stream.activities:
                self.exchanges.record("POST", full, started, None, message=f"{type(exc).__name__}: {exc}")
                raise TargetHttpError(None, None, f"{type(exc).__name__}: {exc}") from None
            stream.problems.append(f"the stream broke after {len(stream.activities)} activities: {exc}")
            headers = httpx.Headers()
        self.capture_errors.extend(stream.problems)
        return stream, headers

    async def open(self) -> list[dict[str, Any]]:
        """Create the conversation; return the greeting activities it streamed."""
        body = {"emitStartConversationEvent": self.config.start_conversation_event}
        stream, headers = await self._post(self.base_url, body)
        conversation = next(
            (
                a.get("conversation", {}).get("id")
                for a in stream.activities
                if isinstance(a.get("conversation"), dict) and a["conversation"].get("id")
            ),
            None,
        )
        self.conversation_id = headers.get(CONVERSATION_HEADER) or conversation
        if not self.conversation_id:
            raise TargetHttpError(
                None,
                None,
                f"no conversation id: neither the {CONVERSATION_HEADER} header nor a greeting activity carried one",
            )
        return stream.activities

    async def ask(self, text: str) -> TargetTurn:
        """Send ``text`` as one turn and record everything streamed back."""
        turn = TargetTurn(prompt=text)
        activity = {"type": "message", "text": text, "conversation": {"id": self.conversation_id}}
        started = time.monotonic()
        try:
            stream, _ = await self._post(f"{self.base_url}/{self.conversation_id}", {"activity": activity})
        except TargetHttpError as exc:
            turn.error, turn.error_code, turn.http_status, turn.ended_by = exc.describe(), exc.code, exc.status, "error"
            turn.duration_ms = round((time.monotonic() - started) * 1000, 1)
            return turn
        turn.ended_by = stream.ended_by
        turn.latency_ms = round((stream.first_at - started) * 1000, 1) if stream.first_at else None
        turn.duration_ms = round((time.monotonic() - started) * 1000, 1)
        fill_turn(turn, stream.activities, typing_observable=True)
        if turn.error is None and turn.answer is None:
            turn.error = no_message_error(turn, timeout_s=self.timeout_s)
        return turn


__all__ = ["API_VERSION", "CONVERSATION_HEADER", "AgentsSdkConversation"]
