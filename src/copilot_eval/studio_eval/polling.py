"""Waiting for a run: poll it until the platform says it finished, within a timeout.

A run "can take up to a few minutes"; clients poll about every 20 s. Each poll is one read (which
the client retries on 429 and 503 within the same deadline); a run still going at the deadline
raises RunTimeoutError with its id and last state, so it can be read later without a new run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from copilot_eval.studio_eval.client import StudioEvalClient
from copilot_eval.studio_eval.errors import RunTimeoutError
from copilot_eval.studio_eval.shapes import StudioRun

DEFAULT_POLL_S = 20.0
DEFAULT_TIMEOUT_S = 1800.0


def progress_line(run: StudioRun) -> str:
    """``run 7f0c...: InProgress (EvaluatingRun), 3 of 6 test cases processed``."""
    state = run.state or "state unknown"
    execution = f" ({run.execution_state})" if run.execution_state and run.execution_state != run.state else ""
    if run.processed is not None and run.total_test_cases is not None:
        done = f", {run.processed} of {run.total_test_cases} test cases processed"
    else:
        done = ""
    return f"run {run.id}: {state}{execution}{done}"


async def wait_for_run(
    client: StudioEvalClient,
    run_id: str,
    *,
    poll_s: float = DEFAULT_POLL_S,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    on_progress: Callable[[StudioRun], None] | None = None,
) -> StudioRun:
    """The run once finished (Completed, Failed, Cancelled, Abandoned or Deleted); RunTimeoutError after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        run = await client.get_run(run_id, deadline=deadline)
        if on_progress is not None:
            on_progress(run)
        if run.finished:
            return run
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise RunTimeoutError(
                f"the run is still {run.state or 'in an unknown state'} after {timeout_s:g} s",
                run_id=run_id,
                state=run.state,
                hint=f"it goes on on the platform: read it later with `copilot-eval studio-eval get {run_id} ...` "
                "(no new run is started), or raise --timeout-s",
            )
        await asyncio.sleep(min(poll_s, remaining))


__all__ = ["DEFAULT_POLL_S", "DEFAULT_TIMEOUT_S", "progress_line", "wait_for_run"]
