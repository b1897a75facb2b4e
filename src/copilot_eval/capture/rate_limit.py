"""The one place that decides whether a run ended on the model's rate limit.

The runtime already retries a 429 (and a 503) several times on its own, honouring Retry-After,
before it gives up with a ``session.error``; only then is the run over. That end is a rate limit
when the error's status is 429 (errorType ``rate_limit``), or 503 sent with a Retry-After (a
service saying "later", not "broken"). The header is seen only at the request-handler seam, so
the runner hands it over in ``RunFacts``.

A run whose own deadline (``timeout_s``) came while the runtime was still retrying such refusals
ended on the rate limit too: the model was refusing up to the last moment, so the run is played
again later like any other rate-limited run, and not graded as a timeout of the agent.
"""

from __future__ import annotations

from copilot_eval.capture.conversation import SessionFacts
from copilot_eval.capture.run_facts import RunFacts
from copilot_eval.evidence import RateLimit

TOO_MANY_REQUESTS = 429
UNAVAILABLE = 503


def rate_limit_of(
    facts: RunFacts | None, session: SessionFacts, *, ended_by_session_error: bool, timed_out: str | None = None
) -> RateLimit | None:
    """The rate limit that ended the run, or None (also for a run that ended any other way).

    ``timed_out``: the words of the run's timeout, when its own deadline ended it.
    """
    seen_status = facts.model_failure_status if facts is not None else None
    retry_after = facts.model_retry_after_s if facts is not None else None
    if timed_out is not None:
        # No session error yet: the refusals the seam saw, still going at the deadline, are the evidence.
        return _refusal(seen_status, seen_status, retry_after, timed_out)
    if not ended_by_session_error or session.error is None:
        return None
    status = session.error_status if session.error_status is not None else seen_status
    if session.error_type == "rate_limit" and status is None:
        status = TOO_MANY_REQUESTS
    return _refusal(status, seen_status, retry_after, session.error)


def _refusal(status: int | None, seen_status: int | None, retry_after: float | None, message: str) -> RateLimit | None:
    """A 429 (its Retry-After when the seam saw that status), or a 503 the seam saw with a Retry-After."""
    if status == TOO_MANY_REQUESTS:
        return RateLimit(status=status, retry_after_s=retry_after if seen_status == status else None, message=message)
    if status == UNAVAILABLE and seen_status == UNAVAILABLE and retry_after is not None:
        return RateLimit(status=status, retry_after_s=retry_after, message=message)
    return None


__all__ = ["rate_limit_of"]
