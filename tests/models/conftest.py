"""Test helpers: one real Copilot runtime per test module, routing each session to its own endpoint."""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest


def runtime_executable() -> str:
    """The runtime the tool itself would use (explicit env, cache, or installed on first use)."""
    from copilot_eval.runtime.process.locate import locate_runtime

    return str(locate_runtime().path)


def runtime_env() -> dict[str, str]:
    """The runtime's environment, with the tool's shared asset cache."""
    from copilot_eval.runtime.process.environment import runtime_environment

    return runtime_environment()


FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class Run:
    """What one session did: its events, the endpoint that answered, and how long it took."""

    events: list[Any]
    endpoint: Any
    working_directory: str
    seconds: float
    session_id: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)

    def of_type(self, kind: str, *, root_only: bool = True) -> list[Any]:
        """Events of one type (by default only the root agent's)."""
        return [e for e in self.events if e.type.value == kind and not (root_only and _agent(e))]

    @property
    def final_text(self) -> str:
        """Content of the root agent's last assistant message."""
        messages = self.of_type("assistant.message")
        return messages[-1].data.content if messages else ""

    @property
    def errors(self) -> list[Any]:
        """The session.error events."""
        return self.of_type("session.error", root_only=False)


def _agent(event: Any) -> Any:
    return getattr(event, "agent_id", None) or getattr(event.data, "agent_id", None)


class Runtime:
    """A started CopilotClient whose request handler routes each session to the endpoint it was given."""

    def __init__(self) -> None:
        from copilot import CopilotClient, CopilotRequestHandler, RuntimeConnection

        routes: dict[str, Any] = {}
        self._routes = routes

        class Router(CopilotRequestHandler):
            async def send_request(self, request, ctx):
                return await routes[ctx.session_id].send_request(request, ctx)

            async def open_websocket(self, ctx):
                return await routes[ctx.session_id].open_websocket(ctx)

        self.home = tempfile.mkdtemp(prefix="scripted-home-")
        self.client = CopilotClient(
            connection=RuntimeConnection.for_stdio(path=runtime_executable()),
            request_handler=Router(),
            base_directory=self.home,
            env=runtime_env(),
        )

    async def run(
        self,
        model: Any,
        prompts: str | list[str],
        *,
        streaming: bool = False,
        tools: list[Any] | None = None,
        base_url: str | None = None,
        endpoint: Any = None,
        timeout: float = 30,
        **session: Any,
    ) -> Run:
        """Send each prompt in one session and wait for the root session.idle after each."""
        from copilot import PermissionHandler

        workdir = tempfile.mkdtemp(prefix="scripted-wd-")
        endpoint = endpoint or model.endpoint(working_directory=workdir)
        events: list[Any] = []
        idle = asyncio.Event()

        def on_event(event: Any) -> None:
            events.append(event)
            if event.type.value == "session.idle" and not _agent(event):
                idle.set()

        s = await self.client.create_session(
            model=model.session_model,
            provider=model.provider_config(base_url=base_url),
            on_permission_request=PermissionHandler.approve_all,
            working_directory=workdir,
            streaming=streaming,
            tools=tools,
            on_event=on_event,
            **session,
        )
        self._routes[s.session_id] = endpoint
        start = time.monotonic()
        try:
            for prompt in [prompts] if isinstance(prompts, str) else prompts:
                idle.clear()
                await s.send(prompt)
                await asyncio.wait_for(idle.wait(), timeout)
        finally:
            await s.disconnect()
            self._routes.pop(s.session_id, None)
        return Run(events, endpoint, workdir, time.monotonic() - start, s.session_id)


@pytest.fixture(scope="module")
async def runtime():
    """One real runtime for the module (installed on first use, like the tool does)."""
    rt = Runtime()
    await rt.client.start()
    try:
        yield rt
    finally:
        await rt.client.stop()
