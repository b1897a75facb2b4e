"""AgentDojo's environments of a run's plays, served as MCP over HTTP on loopback from the runner's own process.

AgentDojo is imported once, by the suite, and stays loaded: each play gets a fresh environment of
its own (the suite's defaults with the play's injections placed, then the user task's set-up), a
copy of it as the agent found it, and a URL of its own (``/plays/<key>/mcp``) that the runtime
reaches as a streamable-HTTP MCP server. Calls run AgentDojo's functions on that environment and
answer the text AgentDojo's own agents are given (``tool_result_to_str``); the checks read the same
objects afterwards, with nothing written and read back. The first design started one stdio server
per play, which imported AgentDojo anew each time: 3.7 s of a 4.3 s play.

The transport is the small part of streamable HTTP a stateless server needs: a POST carries one
JSON-RPC message; a request is answered with a JSON body, a notification with 202; any other method
is 405 (runtime 1.0.102 opens no stream of its own). The JSON-RPC itself is ``env_server``'s.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.loopback_server import LoopbackServer
from copilot_eval.security import env_server

# AgentDojo is imported inside the functions that use it: it is the optional [agentdojo] extra (and takes seconds to
# import), which no other suite needs.

__all__ = ["DojoHost", "PlayEnvironment"]


@dataclass
class PlayEnvironment:
    """One play's AgentDojo environment: as the agent found it (``before``) and as its calls left it (``now``)."""

    before: Any
    now: Any
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class _Session(env_server.Environment):
    """The MCP answers of one play: handshake and tool list from the spec, calls by AgentDojo's functions."""

    def __init__(self, spec: dict[str, Any], play: PlayEnvironment, functions: Any) -> None:
        super().__init__(spec)
        self.play, self.functions = play, functions

    def call_tool(self, params: dict[str, Any]) -> dict[str, Any]:
        """Run one AgentDojo function on the play's environment."""
        from agentdojo.agent_pipeline.tool_execution import tool_result_to_str

        with self.play.lock:
            result, error = self.functions.run_function(
                self.play.now, params.get("name", ""), params.get("arguments") or {}
            )
        if error is not None:
            return {"content": [{"type": "text", "text": error}], "isError": True}
        return {"content": [{"type": "text", "text": tool_result_to_str(result)}], "isError": False}


async def _body(receive: Any) -> bytes:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


async def _reply(send: Any, status: int, payload: Any = None) -> None:
    body = b"" if payload is None else json.dumps(payload, ensure_ascii=False).encode()
    headers = [(b"content-type", b"application/json")] if payload is not None else []
    if status == 405:
        headers.append((b"allow", b"POST"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class DojoHost:
    """The MCP endpoint of every play of a run, from one process that keeps AgentDojo loaded.

    ``functions`` is AgentDojo's ``FunctionsRuntime`` over the suite's tools (stateless: each call
    names the environment). Use ``serving()`` around the plays; ``add`` a play before it starts.
    """

    def __init__(self, functions: Any) -> None:
        self.functions = functions
        self._sessions: dict[str, _Session] = {}
        self._by_folder: dict[str, PlayEnvironment] = {}
        self._url: str | None = None

    def add(self, key: str, spec: dict[str, Any], environment: Any, *, working_directory: str) -> str:
        """Serve ``environment`` as play ``key``; the URL the runtime reaches it at."""
        if self._url is None:
            raise RuntimeError("the AgentDojo host is not serving: play the suite through run_suite")
        play = PlayEnvironment(before=copy.deepcopy(environment), now=environment)
        self._sessions[key] = _Session(spec, play, self.functions)
        self._by_folder[working_directory] = play
        return f"{self._url}/plays/{key}/mcp"

    def release(self, key: str, working_directory: str) -> PlayEnvironment | None:
        """Stop serving play ``key`` and hand back its environments (None: never added).

        Called once the play is judged: a full run has a thousand plays, each environment megabytes.
        """
        self._by_folder.pop(working_directory, None)
        session = self._sessions.pop(key, None)
        return session.play if session is not None else None

    def environment_in(self, working_directory: str) -> PlayEnvironment | None:
        """The environments of the play working in that folder (how a scripted agent finds its play)."""
        return self._by_folder.get(working_directory)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The ASGI app: one JSON-RPC message per POST to ``/plays/<key>/mcp``."""
        if scope.get("type") != "http":
            return
        parts = str(scope.get("path", "")).strip("/").split("/")
        session = self._sessions.get(parts[1]) if len(parts) == 3 and parts[0] == "plays" else None
        if session is None or parts[2] != "mcp":
            await _reply(send, 404, {"error": f"no play at {scope.get('path')}"})
            return
        if scope.get("method") != "POST":
            await _reply(send, 405)
            return
        try:
            message = json.loads(await _body(receive))
        except ValueError:
            await _reply(send, 400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            return
        reply = session.handle(message) if isinstance(message, dict) else None
        if reply is None:
            await _reply(send, 202)
        else:
            await _reply(send, 200, reply)

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[DojoHost]:
        """Serve on 127.0.0.1 for the duration; the plays' environments are dropped at the end."""
        async with LoopbackServer(self) as server:
            self._url = server.url
            try:
                yield self
            finally:
                self._url = None
                self._sessions.clear()
                self._by_folder.clear()
