"""A pool of runtime processes: one runtime serves many concurrent sessions, and is reused.

Starting a runtime costs about 0.4 s and a 2-turn session about 0.15 s, so a fresh runtime per
run would cost several times the run itself. A dead runtime is noticed and replaced on the next
lease. No runtime outlives Python: stdio ties it to our pipe, `close()` stops it, and an exit hook
kills whatever is left.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.runtime.process.client_factory import runtime_process, start_client
from copilot_eval.runtime.process.locate import locate_runtime
from copilot_eval.runtime.requests.router import SessionRouter

RUNTIMES_ENV = "COPILOT_EVAL_RUNTIMES"
STOP_DEADLINE_S = 3.0
KILL_DEADLINE_S = 1.0

_live_processes: set[subprocess.Popen[Any]] = set()


def _kill_leftovers() -> None:
    """Exit hook: end every runtime process this Python process started and did not stop."""
    for process in list(_live_processes):
        if process.poll() is None:
            process.kill()
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass


atexit.register(_kill_leftovers)


def describe_exit(returncode: int | None) -> str:
    """Human words for a process exit code (signals by name)."""
    if returncode is None:
        return "is still running"
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


@dataclass
class RuntimeHandle:
    """One started runtime process, its SDK client and its session router."""

    client: Any
    router: SessionRouter
    executable: Path
    mode: str
    process: subprocess.Popen[Any] | None = None
    sessions_started: int = field(default=0)
    active_sessions: int = field(default=0)

    def alive(self) -> bool:
        """Whether the runtime process is still running (True when it cannot be observed)."""
        return self.process is None or self.process.poll() is None

    def exit_description(self) -> str:
        """What happened to the process, for error messages."""
        pid = self.process.pid if self.process is not None else "?"
        returncode = self.process.poll() if self.process is not None else None
        return f"Copilot runtime process {pid} {describe_exit(returncode)}"


def default_max_runtimes() -> int:
    """How many runtime processes a pool may run at once: env ``COPILOT_EVAL_RUNTIMES``, else one
    per core up to four. A runtime executes its sessions on one JavaScript thread (about 0.17 s of
    CPU per 2-turn session here), so a second process is what lets concurrent runs use a second core."""
    configured = os.environ.get(RUNTIMES_ENV)
    if configured:
        try:
            value = int(configured)
        except ValueError:
            raise ValueError(f"env {RUNTIMES_ENV} must be a whole number, got {configured!r}") from None
        if value < 1:
            raise ValueError(f"env {RUNTIMES_ENV} must be at least 1, got {value}")
        return value
    return max(1, min(4, os.cpu_count() or 1))


class RuntimePool:
    """Leases runtime processes to runs: sequential runs share one process, concurrent runs are
    spread over up to ``max_runtimes`` processes; a dead process is replaced on the next lease."""

    def __init__(self, *, runtime_path: str | Path | None = None, max_runtimes: int | None = None) -> None:
        self._runtime_path = runtime_path
        self.max_runtimes = max_runtimes or default_max_runtimes()
        self._handles: dict[tuple[str, str | None], list[RuntimeHandle]] = {}
        self._lock = asyncio.Lock()
        self.replacements = 0
        self.closed = False

    async def lease(self, *, mode: str = "copilot-cli", runtime_path: str | Path | None = None,
                    github_token: str | None = None) -> RuntimeHandle:
        """A live runtime for this mode, starting or replacing one when needed (from any loop)."""
        from copilot_eval.runtime.process.host import runtime_host

        return await runtime_host().run(self._lease(mode, runtime_path, github_token))

    async def _lease(self, mode: str, runtime_path: str | Path | None, github_token: str | None) -> RuntimeHandle:
        if self.closed:
            raise RuntimeError("this runtime pool is closed")
        key = (mode, github_token)
        async with self._lock:
            handles = self._handles.setdefault(key, [])
            for dead in [handle for handle in handles if not handle.alive()]:
                handles.remove(dead)
                self.replacements += 1
                await self._stop(dead)
            handle = min(handles, key=lambda h: h.active_sessions, default=None)
            if handle is None or (handle.active_sessions > 0 and len(handles) < self.max_runtimes):
                handle = await self._start(mode, runtime_path, github_token)
                handles.append(handle)
            handle.sessions_started += 1
            handle.active_sessions += 1
            return handle

    async def _start(self, mode: str, runtime_path: str | Path | None, github_token: str | None) -> RuntimeHandle:
        location = await asyncio.to_thread(locate_runtime, runtime_path or self._runtime_path)
        router = SessionRouter()
        client = await start_client(location.path, request_handler=router, mode=mode, github_token=github_token)
        handle = RuntimeHandle(client=client, router=router, executable=location.path, mode=mode,
                               process=runtime_process(client))
        if handle.process is not None:
            _live_processes.add(handle.process)
        return handle

    def release(self, handle: RuntimeHandle) -> None:
        """A run is done with its lease (its session is closed or abandoned)."""
        handle.active_sessions = max(0, handle.active_sessions - 1)

    async def _stop(self, handle: RuntimeHandle) -> None:
        """Stop one runtime within STOP_DEADLINE_S, then kill it; never raises, never hangs.

        A runtime that is already dead is not asked to stop (nothing would answer): the SDK
        client is only force-closed, so replacing a dead runtime costs no stop deadline.
        """
        graceful = handle.alive()
        try:
            if graceful:
                await asyncio.wait_for(handle.client.stop(), STOP_DEADLINE_S)
            else:
                await asyncio.wait_for(handle.client.force_stop(), KILL_DEADLINE_S)
        except BaseException:  # noqa: BLE001 - a stop that fails or hangs falls back to a kill
            try:
                await asyncio.wait_for(handle.client.force_stop(), KILL_DEADLINE_S)
            except BaseException:  # noqa: BLE001
                pass
        process = handle.process
        if process is not None:
            if process.poll() is None:
                process.kill()
                try:
                    await asyncio.wait_for(asyncio.to_thread(process.wait), KILL_DEADLINE_S)
                except BaseException:  # noqa: BLE001 - left to the exit hook
                    return
            _live_processes.discard(process)

    async def close(self) -> None:
        """Stop every runtime of the pool, each within its own deadline (from any event loop)."""
        from copilot_eval.runtime.process.host import runtime_host

        await runtime_host().run(self._close())

    async def _close(self) -> None:
        self.closed = True
        handles = [handle for group in self._handles.values() for handle in group]
        self._handles = {}
        await asyncio.gather(*(self._stop(handle) for handle in handles), return_exceptions=True)

    def processes(self) -> list[subprocess.Popen[Any]]:
        """The runtime processes currently held (for tests and diagnostics)."""
        return [h.process for group in self._handles.values() for h in group if h.process is not None]


_shared: RuntimePool | None = None


def shared_pool() -> RuntimePool:
    """The process-wide pool, created on first use and reused by every run of the process."""
    global _shared
    if _shared is None or _shared.closed:
        _shared = RuntimePool()
    return _shared


async def close_shared_pool() -> None:
    """Stop the shared pool's runtimes (from any event loop); the next run starts a fresh pool."""
    global _shared
    pool, _shared = _shared, None
    if pool is not None:
        await pool.close()


def close_all_pools() -> None:
    """Stop the shared pool from synchronous code (end of a pytest session, end of a command)."""
    from copilot_eval.runtime.process.host import runtime_host

    if _shared is not None:
        runtime_host().run_sync(close_shared_pool(), timeout=STOP_DEADLINE_S + KILL_DEADLINE_S + 2)
