"""The one final say on a run: ``stop_reason``, ``success`` and ``error`` from recorded facts.

The runner records what it saw (``RunFacts``); the events say whether the root went idle and
what the session reported. This function alone decides what that means, in a fixed order of
causes: our own stop first (the runtime's reaction only echoes it), then a dead runtime, a
timeout, a failed call into the runtime, a session error, and otherwise completion. It decides a
subagent's outcome too: a child has no runner facts of its own, so it is judged like a saved log,
its lifecycle's "completed" standing in for the root's idle.
"""

from __future__ import annotations

from dataclasses import dataclass

from copilot_eval.capture.conversation import SessionFacts
from copilot_eval.capture.rate_limit import rate_limit_of
from copilot_eval.capture.run_facts import RunFacts
from copilot_eval.evidence import CaptureError, RateLimit, StopReason


@dataclass(frozen=True)
class Outcome:
    """How a run ended, as decided from its facts."""

    stop_reason: StopReason | None
    success: bool
    error: str | None
    rate_limit: RateLimit | None = None  # the run ended on the model's rate limit (not a verdict)


def _join(*parts: str | None) -> str | None:
    texts = [part for part in parts if part]
    return "; ".join(texts) if texts else None


def _cause(facts: RunFacts, session: SessionFacts) -> tuple[StopReason, str | None, bool]:
    """The first cause: stop reason, its words, and whether those words already are the session's."""
    if facts.stop_reason is not None:  # declared by a caller that knows
        return facts.stop_reason, facts.error, False
    if facts.stop_request is not None:
        # A stop asked for as "completed" (stop_at_tools) ended the run where it was meant to end: no error.
        reason, words = facts.stop_request
        return reason, None if reason == "completed" else words, False
    if facts.runtime_exit is not None:
        return (
            "execution_error",
            (
                f"{facts.runtime_exit}: {facts.exception}"
                if facts.exception
                else f"{facts.runtime_exit} during the session"
            ),
            False,
        )
    if facts.timed_out_while is not None:
        limit = f"{facts.timeout_s:g} s" if facts.timeout_s is not None else "the deadline"
        text = f"timed out after {limit} (timeout_s) {facts.timed_out_while}"
        return "timeout", _join(text, *facts.known_at_timeout), False
    if facts.exception is not None:
        return "execution_error", facts.exception, False
    if session.error is not None:
        note = f" {facts.session_error_note}" if facts.session_error_note else ""
        return "execution_error", f"{session.error}{note}", True
    return "completed", None, False


def decide_outcome(
    facts: RunFacts | None,
    session: SessionFacts,
    blocking: list[CaptureError],
    *,
    mcp_failure: str | None = None,
    unfinished: str = "the session never reached idle",
) -> Outcome:
    """Stop reason, success and error of a run or a subagent (``blocking``: capture errors that fail it;
    ``mcp_failure``: a required MCP server that could not start, the cause before any other;
    ``unfinished``: why a scope without facts that never finished failed, e.g. a subagent's status)."""
    if facts is not None and mcp_failure is not None:
        return Outcome("execution_error", False, mcp_failure)
    if facts is None:  # a saved log or a subagent: no stop reason, success from the events alone
        success = session.idle_seen and session.error is None and not blocking
        error = session.error
        if not success and error is None:
            error = _explain(blocking, unfinished if not session.idle_seen else "capture failed")
        return Outcome(None, success, error, rate_limit_of(None, session, ended_by_session_error=True))
    reason, words, from_session = _cause(facts, session)
    # A run that already failed keeps its first cause (a timeout whose abort also overran is
    # still a timeout); only a run that would otherwise have completed ends as cleanup_error.
    if facts.cleanup_error is not None and reason == "completed":
        reason = "cleanup_error"
    cleanup = f"cleanup failed: {facts.cleanup_error}" if facts.cleanup_error is not None else None
    error = _join(words, None if from_session else session.error, cleanup)
    success = reason == "completed" and session.error is None and not blocking
    if not success and error is None:
        error = _explain(blocking, f"stop reason: {reason}")
    timed_out = words if reason == "timeout" and facts.timed_out_while is not None else None
    rate_limit = rate_limit_of(facts, session, ended_by_session_error=from_session, timed_out=timed_out)
    return Outcome(reason, success, error, rate_limit)


def _explain(blocking: list[CaptureError], fallback: str) -> str:
    return f"incomplete evidence: {blocking[0]}" if blocking else fallback
