"""The Direct Line WebSocket stream, read in the background: the only way ``typing`` is delivered.

Frames are ActivitySets (JSON) or empty keep-alives. Activities are queued for the conversation,
which de-duplicates them against what REST polling delivered. If the stream cannot be opened or
closes early, the conversation carries on with polling alone and says so in its capture errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import websockets

from copilot_eval.targets.http import Exchanges

OPEN_TIMEOUT_S = 10.0


class ActivityStream:
    """A background reader of one conversation's ``streamUrl``; ``drain()`` takes what arrived."""

    def __init__(self, url: str, exchanges: Exchanges) -> None:
        self.url, self.exchanges = url, exchanges
        self.arrived = asyncio.Event()
        self.problems: list[str] = []
        self._pending: list[dict[str, Any]] = []
        self._socket: Any = None
        self._task: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        """Whether frames are still being read."""
        return self._task is not None and not self._task.done()

    async def start(self) -> bool:
        """Connect (the URL carries its own token); False, with the reason recorded, when it fails."""
        started = time.monotonic()
        try:
            self._socket = await websockets.connect(self.url, open_timeout=OPEN_TIMEOUT_S, max_size=None)
        except (TimeoutError, OSError, websockets.WebSocketException) as exc:
            message = self.exchanges.secrets.scrub(f"{type(exc).__name__}: {exc}")
            self.exchanges.record("WEBSOCKET", self.url, started, None, message=message)
            self.problems.append(f"the Direct Line stream could not be opened ({message}); polling only")
            return False
        self.exchanges.record("WEBSOCKET", self.url, started, 101)
        self._task = asyncio.create_task(self._read())
        return True

    async def _read(self) -> None:
        try:
            async for frame in self._socket:
                if not frame or not str(frame).strip():
                    continue  # keep-alive
                try:
                    data = json.loads(frame)
                except ValueError:
                    self.problems.append(f"unreadable stream frame: {str(frame)[:200]}")
                    continue
                activities = data.get("activities") if isinstance(data, dict) else None
                self._pending.extend(a for a in activities or [] if isinstance(a, dict))
                self.arrived.set()
        except websockets.WebSocketException as exc:
            self.problems.append(f"the Direct Line stream closed: {exc}; polling only")
        close = getattr(self._socket, "close_reason", None)
        if close:
            self.problems.append(f"the Direct Line stream was closed by the service: {close}")

    def drain(self) -> list[dict[str, Any]]:
        """The activities received since the last call."""
        items, self._pending = self._pending, []
        self.arrived.clear()
        return items

    async def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds``, waking early when a frame arrives."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.arrived.wait(), timeout=max(0.0, seconds))

    async def close(self) -> None:
        """Stop reading and close the socket."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await self._socket.close()


__all__ = ["ActivityStream"]
