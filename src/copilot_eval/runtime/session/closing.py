"""Ending a run's session: the abort that completes the evidence, and the close that comes after.

The abort (only for a run that did not reach idle) is part of the run: the events it brings
(the aborted idle, the completion of a call the run gave up on) belong to the evidence. Closing
the session is not: disconnecting it, dropping it from the SDK client's map, removing its
COPILOT_HOME and its route happen after the result has been returned, each bounded, so that
neither a slow runtime nor a busy machine can hold up or fail a finished run.

There is no ``delete_session``: runtime 1.0.102 looks for a session's files under the client's
base directory, so for a session created with its own ``config_directory`` (every run here) it
always answers "Session file not found" and frees nothing. The session's files go with its
folder. Its memory: a disconnected session kept about 0.36 MB of runtime memory while the
cross-session store was on, and none measurable with it off (293 MB -> 291 MB over 300 sessions;
session_config.py turns it off). Sharing the base directory instead, so that the delete works,
made each run about 10 % slower. Recycling (runtime/process/recycle.py) covers what is left.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from copilot_eval.runtime.process.handle import RuntimeHandle
from copilot_eval.runtime.process.home import remove_home
from copilot_eval.runtime.sdk_internals import forget_session
from copilot_eval.runtime.session.deadlines import bounded

ABORT_DEADLINE_S = 1.0  # the abort request itself
ABORT_SETTLE_S = 0.5  # then the aborted idle (and late completions) it brings
# Generous: nobody waits for these (the run has returned), and a busy machine can be slow to answer.
DISCONNECT_DEADLINE_S = 10.0


async def abort_if_busy(session: Any, handle: RuntimeHandle, idle: asyncio.Event) -> str | None:
    """Abort a session that has not reached idle, and give its last events a moment to arrive.

    Returns a description of the failure, or ``None``. Bounded by ABORT_DEADLINE_S plus
    ABORT_SETTLE_S whatever the runtime does.
    """
    if session is None or idle.is_set() or not handle.alive():
        return None
    started = time.monotonic()
    problem = await bounded(session.abort(), ABORT_DEADLINE_S, "aborting the session")
    if problem is None:
        remaining = ABORT_DEADLINE_S + ABORT_SETTLE_S - (time.monotonic() - started)
        try:
            await asyncio.wait_for(idle.wait(), max(remaining, 0.05))
        except TimeoutError:
            pass  # the evidence says what arrived; an abort without its idle is still an abort
    return problem


async def close_session(session: Any, handle: RuntimeHandle, session_id: str, home: Path) -> list[str]:
    """Disconnect a finished run's session, then drop it from the client's map and remove its
    route and COPILOT_HOME. Returns what went wrong (never raises)."""
    problems: list[str] = []
    try:
        if session is not None and handle.alive():
            problem = await bounded(session.disconnect(), DISCONNECT_DEADLINE_S, "disconnecting the session")
            if problem:
                problems.append(f"{problem} (session {session_id})")
    finally:
        forget_session(handle.client, session_id)  # disconnect leaves it in the SDK client's map
        handle.router.unregister(session_id)
        await asyncio.to_thread(remove_home, home)
    return problems
