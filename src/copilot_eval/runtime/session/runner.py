"""run_copilot: one agent, one session on a pooled runtime, hard limits, evidence always returned.

Every path returns: the wait for the root ``session.idle`` is bounded by ``timeout_s``, a dead
runtime is noticed within a poll interval, and an abort has its own deadline. The session is
closed after the result is returned. Whatever was captured before a fault is kept in the result;
the run records facts (``SessionRun``) and capture alone decides how it ended.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.models.choice import ModelChoice, choose_model
from copilot_eval.runtime.process.handle import RuntimeHandle
from copilot_eval.runtime.process.host import runtime_host
from copilot_eval.runtime.process.pool import RuntimePool, shared_pool
from copilot_eval.runtime.session.closing import ABORT_DEADLINE_S, ABORT_SETTLE_S
from copilot_eval.runtime.session.session_run import SessionRun

# A run that did not reach idle is aborted before it returns (bounded: abort, then its last events);
# closing the session happens after the result is returned (runtime/session/closing.py).
CLEANUP_BUDGET_S = ABORT_DEADLINE_S + ABORT_SETTLE_S


async def _lease(pool: RuntimePool, run: SessionRun) -> RuntimeHandle:
    """A runtime from the pool within the run's deadline.

    The lease itself is shielded: a runtime that is still starting when the deadline passes keeps
    starting and stays in the pool for later runs instead of being cancelled half-way.
    """
    agent = run.agent
    lease = asyncio.ensure_future(
        pool.lease(
            mode=agent.client_mode,
            runtime_path=agent.runtime_path,
            github_token=run.choice.github_token,
            environment=run.environment,
            trace_content=agent.capture_trace_content,
        )
    )
    try:
        return await asyncio.wait_for(asyncio.shield(lease), max(run.deadline - time.monotonic(), 0.001))
    except TimeoutError:
        # Nobody will use the lease that is still coming: hand it back as soon as it arrives.
        lease.add_done_callback(
            lambda done: None if done.cancelled() or done.exception() else pool.release(done.result())
        )
        raise


def _prompt_list(prompt: str | Sequence[str]) -> list[str]:
    prompts = [prompt] if isinstance(prompt, str) else list(prompt)
    if not prompts or any(not isinstance(p, str) or not p.strip() for p in prompts):
        raise ValueError("prompt: give a non-empty prompt (or a list of non-empty prompts)")
    return prompts


async def run_copilot(
    agent: CopilotEval,
    prompt: str | Sequence[str],
    *,
    pool: RuntimePool | None = None,
    default_model: Any = None,
    default_provider: Any = None,
) -> CopilotResult:
    """Run ``prompt`` (or several prompts, as one conversation) through the real runtime.

    ``agent.timeout_s`` bounds the whole run, from this call to its return, except that a run
    that did not reach idle is aborted within ``CLEANUP_BUDGET_S`` more. The session is closed and
    deleted after the result is returned (the pool awaits that when it closes). Returns a CopilotResult
    describing the execution; raises only for configuration or setup errors (a bad agent, no
    runtime), never for what happens inside the session. Works from any event loop: the session
    itself runs on the runtime host's loop, where the pooled runtimes live.
    """
    prompts = _prompt_list(prompt)
    choice = choose_model(agent, default_model, default_provider)
    run = _run_on_host(agent, prompts, choice, pool, asyncio.get_running_loop())
    return await runtime_host().run(run)


# The async and blocking entry points repeat one public signature on purpose (each shown whole in help()).
def run_copilot_sync(
    agent: CopilotEval,
    prompt: str | Sequence[str],
    *,
    pool: RuntimePool | None = None,
    default_model: Any = None,
    default_provider: Any = None,
) -> CopilotResult:
    """Blocking form of :func:`run_copilot` for scripts and notebooks (not for async code)."""
    prompts = _prompt_list(prompt)
    choice = choose_model(agent, default_model, default_provider)
    return runtime_host().run_sync(_run_on_host(agent, prompts, choice, pool, None))


async def _run_on_host(
    agent: CopilotEval,
    prompts: list[str],
    choice: ModelChoice,
    pool: RuntimePool | None,
    caller_loop: asyncio.AbstractEventLoop | None,
) -> CopilotResult:
    """The run itself, on the host loop: lease, open, send loop, close; capture judges the result.

    Async tool functions are sent back to ``caller_loop``.
    """
    pool = pool or shared_pool()
    run = SessionRun(agent, prompts, choice, caller_loop)
    try:
        await run.open(await _lease(pool, run))
        await run.send_all()
    except Exception as error:
        await run.record_failure(error)
    finally:
        await run.close(pool)
        await run.collect_trace()
    return run.result()
