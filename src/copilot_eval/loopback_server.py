"""Serve an ASGI app on loopback with uvicorn: in the current event loop, or in a background thread.

The async form suits async tests; the thread form suits synchronous callers (the CLI example,
plain pytest tests) whose own event loop would otherwise be blocked by the client they test.
A leaf module (it imports nothing of copilot_eval): the Copilot Studio fakes and the scripted
model's HTTP server start and stop their servers through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from typing import Any

# uvicorn is imported when something is served: this leaf is imported widely, and only a process that serves pays for
# uvicorn.

__all__ = ["LoopbackServer", "bound_port", "serve_in_loop", "stop_uvicorn"]


def _uvicorn_server(app: Any, *, host: str, port: int, **options: Any) -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        # The caller owns the process's signals: serving on the main thread, uvicorn would take
        # SIGINT and SIGTERM (and raise them again only once it stopped). In the uvicorn versions
        # we support this hook does it; the install_signal_handlers of older ones is gone.
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="off", timeout_graceful_shutdown=1, **options
    )
    return Server(config)


def bound_port(server: Any) -> int:
    """The port a started uvicorn server listens on (port 0 asks the system for a free one)."""
    return int(server.servers[0].sockets[0].getsockname()[1])


async def serve_in_loop(app: Any, *, host: str, port: int, **options: Any) -> tuple[Any, asyncio.Task[None]]:
    """Start uvicorn in the current event loop; the started server and its serving task.

    ``options`` go to ``uvicorn.Config`` (for example ``ws=``). Raises what stopped the server
    from starting (a port already taken ...).
    """
    server = _uvicorn_server(app, host=host, port=port, **options)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # re-raise why the server could not start
            raise RuntimeError(f"loopback server on {host}:{port} did not start")
        await asyncio.sleep(0.01)
    return server, task


async def stop_uvicorn(server: Any, task: asyncio.Task[Any]) -> None:
    """Ask a uvicorn server to exit; after 3 s force it and cancel its serving task."""
    server.should_exit = True
    try:
        await asyncio.wait_for(asyncio.shield(task), timeout=3)
    except TimeoutError:
        server.force_exit = True
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


class LoopbackServer:
    """``async with`` or ``with``: runs ``app`` on 127.0.0.1 on a free port; ``url`` has no trailing slash."""

    def __init__(self, app: Any, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app, self._host, self._port = app, host, port
        self._server: Any = None
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    def _bound(self) -> None:
        self.url = f"http://{self._host}:{bound_port(self._server)}"
        on_start = getattr(self.app, "on_start", None)
        if callable(on_start):
            on_start(self.url)

    async def __aenter__(self) -> LoopbackServer:
        self._server, self._task = await serve_in_loop(self.app, host=self._host, port=self._port)
        self._bound()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is None or self._task is None:
            return
        await stop_uvicorn(self._server, self._task)

    def __enter__(self) -> LoopbackServer:
        self._server = _uvicorn_server(self.app, host=self._host, port=self._port)
        self._thread = threading.Thread(target=self._server.run, name="copilot-eval-fake", daemon=True)
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError(f"loopback server on {self._host}:{self._port} did not start")
            self._thread.join(0.01)
        self._bound()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(5)
