"""A pool of runtime processes: one runtime serves many concurrent sessions, and is reused.

Starting a runtime costs about 0.4 s and a 2-turn session about 0.15 s, so a fresh runtime per
run would cost several times the run itself. A dead runtime is noticed and replaced on the next
lease; a runtime that has served many sessions or grown past a memory mark is recycled (see
``recycle``). No runtime outlives Python: stdio ties it to our pipe, `close()` stops it, and an
exit hook kills whatever is left. Closing a run's session happens after the run has returned;
the pool keeps those cleanups and awaits them (bounded) before it stops a runtime.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading
from collections import deque
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from copilot_eval.runtime.process.client_factory import start_client
from copilot_eval.runtime.process.environment import EnvironmentPolicy
from copilot_eval.runtime.process.handle import RuntimeHandle
from copilot_eval.runtime.process.home import new_copilot_home, remove_home, sweep_stale_homes
from copilot_eval.runtime.process.host import runtime_host
from copilot_eval.runtime.process.locate import locate_runtime
from copilot_eval.runtime.process.recycle import RecyclePolicy, process_rss_mb, whole_number_from_env
from copilot_eval.runtime.process.router import SessionRouter
from copilot_eval.runtime.process.trace_file import TRACE_FILE_NAME, TraceFileReader, trace_enabled
from copilot_eval.runtime.sdk_internals import runtime_process, session_map_size

if TYPE_CHECKING:  # the agent package loads its models: only the name is needed here
    from copilot_eval.agent.config import ClientMode

__all__ = [
    "RuntimePool",
    "close_all_pools",
    "close_shared_pool",
    "default_max_runtimes",
    "shared_pool",
]

RUNTIMES_ENV = "COPILOT_EVAL_RUNTIMES"
STOP_DEADLINE_S = 3.0
KILL_DEADLINE_S = 1.0
CLOSE_CLEANUPS_S = 4.0  # how long closing the pool waits for sessions still being cleaned up

log = logging.getLogger("copilot_eval.runtime")
_swept = False


class _Key(NamedTuple):
    """What a pooled runtime process was started with; runs share a process only when all of it matches."""

    mode: ClientMode
    github_token: str | None
    environment: EnvironmentPolicy
    trace_content: bool = False  # the runtime's trace records message content (capture_trace_content)


def default_max_runtimes() -> int:
    """How many runtime processes a pool may run at once: env ``COPILOT_EVAL_RUNTIMES``, else one
    per core up to four. A runtime executes its sessions on one JavaScript thread (0.2-0.35 s of
    CPU per 2-turn session here), so a second process is what lets concurrent runs use a second core."""
    configured = whole_number_from_env(RUNTIMES_ENV)
    return configured if configured is not None else max(1, min(4, os.cpu_count() or 1))


class RuntimePool:
    """Leases runtime processes to runs: sequential runs share one process, concurrent runs are
    spread over up to ``max_runtimes`` processes; a dead process is replaced on the next lease."""

    def __init__(
        self,
        *,
        runtime_path: str | Path | None = None,
        max_runtimes: int | None = None,
        recycle: RecyclePolicy | None = None,
    ) -> None:
        self._runtime_path = runtime_path
        self.max_runtimes = max_runtimes or default_max_runtimes()
        self.recycle = recycle or RecyclePolicy.from_env()
        # Keyed by what a process was started with: a run never shares a runtime started with
        # another mode, token or environment (a minimal one must not get a full one, and back).
        self._handles: dict[_Key, list[RuntimeHandle]] = {}
        self._retired: list[RuntimeHandle] = []  # recycled, waiting for their runs and cleanups
        self._spares: dict[_Key, asyncio.Future[RuntimeHandle]] = {}
        self._background: set[asyncio.Future[Any]] = set()
        self._lock = asyncio.Lock()
        self.replacements = 0
        self.recycled = 0
        self.cleanup_problems: deque[str] = deque(maxlen=100)  # latest first-hand cleanup failures
        self.closed = False

    async def lease(
        self,
        *,
        mode: ClientMode = "copilot-cli",
        runtime_path: str | Path | None = None,
        github_token: str | None = None,
        environment: EnvironmentPolicy | None = None,
        trace_content: bool = False,
    ) -> RuntimeHandle:
        """A live runtime for this mode, token, environment and trace content setting, starting or
        replacing one when needed (from any loop)."""
        key = _Key(mode, github_token, environment or EnvironmentPolicy(), trace_content)
        return await runtime_host().run(self._lease(key, runtime_path))

    async def _lease(self, key: _Key, runtime_path: str | Path | None) -> RuntimeHandle:
        if self.closed:
            raise RuntimeError("this runtime pool is closed")
        async with self._lock:
            handles = self._handles.setdefault(key, [])
            for dead in [handle for handle in handles if not handle.alive()]:
                handles.remove(dead)
                self.replacements += 1
                await self._stop(dead)
            for worn in [h for h in handles if self.recycle.due(h.sessions_started, h.process)]:
                handles.remove(worn)
                self._retire(worn, self.recycle.due(worn.sessions_started, worn.process) or "recycled")
            handle = min(handles, key=lambda h: h.active_sessions, default=None)
            if handle is None or (handle.active_sessions > 0 and len(handles) < self.max_runtimes):
                handle = await self._take_spare(key) or await self._start(key, runtime_path)
                handles.append(handle)
            handle.sessions_started += 1
            handle.active_sessions += 1
            limit = self.recycle.max_sessions
            if limit is not None and handle.sessions_started >= limit and key not in self._spares:
                # Its last session: start the successor now, so the next run does not wait for it.
                self._spares[key] = asyncio.ensure_future(self._start(key, runtime_path))
            return handle

    async def _take_spare(self, key: _Key) -> RuntimeHandle | None:
        spare = self._spares.pop(key, None)
        if spare is None:
            return None
        try:
            handle = await spare
        except Exception:
            return None
        return handle if handle.alive() else None

    async def _start(self, key: _Key, runtime_path: str | Path | None) -> RuntimeHandle:
        global _swept
        if not _swept:  # leftovers of Python processes killed outright, once per process
            _swept = True
            self._in_background(asyncio.to_thread(sweep_stale_homes))
        location = await asyncio.to_thread(locate_runtime, runtime_path or self._runtime_path)
        router = SessionRouter()
        home = new_copilot_home()
        # One span file per runtime process, in its own home folder (removed when it stops).
        trace_file = home / TRACE_FILE_NAME if trace_enabled() else None
        try:
            client = await start_client(
                location.path,
                request_handler=router,
                mode=key.mode,
                github_token=key.github_token,
                base_directory=home,
                environment=key.environment,
                trace_file=trace_file,
                trace_content=key.trace_content,
            )
        except BaseException:
            remove_home(home)
            raise
        return RuntimeHandle(
            client=client,
            router=router,
            executable=location.path,
            mode=key.mode,
            process=runtime_process(client),
            home=home,
            trace=TraceFileReader(trace_file, content_captured=key.trace_content) if trace_file is not None else None,
        )

    def release(self, handle: RuntimeHandle) -> None:
        """A run has returned: its claim on the runtime ends (its session may still be closing)."""
        handle.active_sessions = max(0, handle.active_sessions - 1)
        self._stop_if_retired_and_idle(handle)

    def track_cleanup(self, handle: RuntimeHandle, cleanup: Coroutine[Any, Any, list[str]]) -> asyncio.Future[Any]:
        """Close a finished run's session in the background; the runtime is not stopped, and the
        pool not closed, before it ends. Problems are logged and kept in ``cleanup_problems``."""
        _drain_shared_pool_at_exit()
        task = asyncio.ensure_future(cleanup)
        handle.cleanups.add(task)

        def done(finished: asyncio.Future[Any]) -> None:
            handle.cleanups.discard(finished)
            if finished.cancelled():
                problems = ["closing the session was cancelled"]
            elif finished.exception() is not None:
                problems = [
                    f"closing the session failed: {type(finished.exception()).__name__}: {finished.exception()}"
                ]
            else:
                problems = finished.result()
            for problem in problems:
                self.cleanup_problems.append(problem)
                log.warning("copilot-eval: after a run: %s", problem)
            self._stop_if_retired_and_idle(handle)

        task.add_done_callback(done)
        return task

    async def drain_cleanups(self, timeout: float = CLOSE_CLEANUPS_S) -> None:
        """Wait (bounded) until the sessions of finished runs are closed (from any event loop)."""

        async def drain() -> None:
            held = [h for group in self._handles.values() for h in group] + self._retired
            cleanups = [task for handle in held for task in handle.cleanups]
            if cleanups:
                await asyncio.wait(cleanups, timeout=timeout)
            if self._background:
                await asyncio.wait(set(self._background), timeout=timeout)

        await runtime_host().run(drain())

    def _retire(self, handle: RuntimeHandle, reason: str) -> None:
        handle.retiring = reason
        self.recycled += 1
        self._retired.append(handle)
        self._stop_if_retired_and_idle(handle)

    def _stop_if_retired_and_idle(self, handle: RuntimeHandle) -> None:
        if handle.retiring and handle.idle() and handle in self._retired:
            self._retired.remove(handle)
            self._in_background(self._stop(handle))

    def _in_background(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

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
        except BaseException:
            try:
                await asyncio.wait_for(handle.client.force_stop(), KILL_DEADLINE_S)
            except BaseException:
                pass
        process = handle.process
        if process is not None and process.poll() is None:
            process.kill()
            try:
                await asyncio.wait_for(asyncio.to_thread(process.wait), KILL_DEADLINE_S)
            except BaseException:
                return
        handle.forget_process()
        await asyncio.to_thread(remove_home, handle.home)

    async def close(self) -> None:
        """Stop every runtime of the pool, each within its own deadline (from any event loop)."""
        await runtime_host().run(self._close())

    async def _close(self) -> None:
        self.closed = True
        handles = [handle for group in self._handles.values() for handle in group] + self._retired
        self._handles, self._retired = {}, []
        cleanups = [task for handle in handles for task in handle.cleanups]
        if cleanups:  # sessions of finished runs are deleted before their runtime goes
            await asyncio.wait(cleanups, timeout=CLOSE_CLEANUPS_S)
        for spare in self._spares.values():
            try:
                handles.append(await spare)
            except Exception:
                pass
        self._spares = {}
        await asyncio.gather(*(self._stop(handle) for handle in handles), return_exceptions=True)
        if self._background:
            await asyncio.wait(set(self._background), timeout=STOP_DEADLINE_S + KILL_DEADLINE_S + 1)

    def processes(self) -> list[Any]:
        """The runtime processes currently held, retiring ones included (tests and diagnostics)."""
        held = [h for group in self._handles.values() for h in group] + self._retired
        return [h.process for h in held if h.process is not None]

    def stats(self) -> dict[str, Any]:
        """What the pool holds right now: runtimes, their memory, sessions in the SDK clients'
        maps, cleanups in flight, recycles and replacements (for benchmarks and diagnostics)."""
        held = [h for group in self._handles.values() for h in group] + self._retired
        return {
            "live_runtimes": sum(1 for h in held if h.alive()),
            "runtime_rss_mb": [process_rss_mb(getattr(h.process, "pid", None)) for h in held],
            "session_map": sum(session_map_size(h.client) or 0 for h in held),
            "pending_cleanups": sum(len(h.cleanups) for h in held),
            "recycled": self.recycled,
            "replacements": self.replacements,
        }


_shared: RuntimePool | None = None
_drain_registered = False
EXIT_DRAIN_S = 3.0


def _drain_shared_pool_at_exit() -> None:
    """Once: at interpreter exit, let the shared pool finish closing sessions (bounded), so a script
    that ends right after its last run leaves neither session files nor error noise behind.

    Registered with threading's exit hooks, which run (last registered first) before the thread
    pools used by the SDK and the cleanup are shut down; plain atexit would run after that.
    """
    global _drain_registered
    if _drain_registered:
        return
    _drain_registered = True

    def drain() -> None:
        pool = _shared
        if pool is not None and not pool.closed and pool.stats()["pending_cleanups"]:
            try:
                runtime_host().run_sync(pool.drain_cleanups(EXIT_DRAIN_S), timeout=EXIT_DRAIN_S + 1)
            except Exception:
                pass

    register = getattr(threading, "_register_atexit", None)
    (register or atexit.register)(drain)


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
    if _shared is not None:
        runtime_host().run_sync(
            close_shared_pool(), timeout=CLOSE_CLEANUPS_S + STOP_DEADLINE_S + 2 * KILL_DEADLINE_S + 2
        )
