"""capture decides, in one place, whether a run ended on the model's rate limit (not a verdict)."""

from __future__ import annotations

from copilot_eval.capture import RunFacts, result_from_events
from tests.capture.event_factory import event, idle, start, user

RETRIED = "Failed to get response from the AI model; retried 5 times (total retry wait time: 5.26 seconds)"


def _error(status: int | None, error_type: str) -> dict:
    data = {"errorType": error_type, "message": RETRIED}
    if status is not None:
        data["statusCode"] = status
    return event("session.error", data)


def _ended(status: int | None, error_type: str, **facts) -> object:
    events = [start(), user("hi"), _error(status, error_type), idle()]
    return result_from_events(events, facts=RunFacts(duration_ms=10.0, **facts))


def test_a_429_that_outlived_the_runtimes_retries_is_a_rate_limit_with_the_wait_the_model_asked_for():
    result = _ended(429, "rate_limit", model_failure_status=429, model_retry_after_s=1.0)
    assert result.stop_reason == "execution_error" and not result.success
    assert result.rate_limit is not None
    assert (result.rate_limit.status, result.rate_limit.retry_after_s) == (429, 1.0)
    assert "retried 5 times" in result.rate_limit.message


def test_errortype_rate_limit_without_a_status_is_still_a_429():
    result = _ended(None, "rate_limit")
    assert result.rate_limit is not None and result.rate_limit.status == 429
    assert result.rate_limit.retry_after_s is None  # the seam saw no header: unknown, not 0


def test_a_503_is_a_rate_limit_only_when_the_service_sent_retry_after():
    with_header = _ended(503, "query", model_failure_status=503, model_retry_after_s=2.0)
    without = _ended(503, "query", model_failure_status=503)
    assert with_header.rate_limit is not None and with_header.rate_limit.retry_after_s == 2.0
    assert without.rate_limit is None


def test_other_errors_and_other_ends_are_not_rate_limits():
    assert _ended(500, "query", model_failure_status=500, model_retry_after_s=2.0).rate_limit is None
    assert _ended(401, "authentication", model_failure_status=401).rate_limit is None


def _timed_out(**facts) -> object:
    return result_from_events(
        [start(), user("hi")], facts=RunFacts(timed_out_while="waiting for the agent to finish", timeout_s=5, **facts)
    )


def test_a_timeout_while_the_runtime_still_retried_a_refusal_is_a_rate_limit():
    # The model refused up to the deadline: the run is played again later, not graded as the agent's timeout.
    result = _timed_out(model_failure_status=429, model_retry_after_s=30.0)
    assert result.stop_reason == "timeout" and not result.success
    assert result.rate_limit is not None
    assert (result.rate_limit.status, result.rate_limit.retry_after_s) == (429, 30.0)
    assert result.rate_limit.message.startswith("timed out after 5 s (timeout_s)")
    assert _timed_out(model_failure_status=503, model_retry_after_s=2.0).rate_limit.status == 503


def test_a_timeout_after_other_failures_or_none_stays_a_plain_timeout():
    for facts in ({}, {"model_failure_status": 500}, {"model_failure_status": 503}):
        result = _timed_out(**facts)
        assert result.stop_reason == "timeout" and result.rate_limit is None, facts


def test_a_saved_log_of_a_429_end_reads_as_a_rate_limit():
    result = result_from_events([start(), user("hi"), _error(429, "rate_limit"), idle()])
    assert result.rate_limit is not None and result.rate_limit.status == 429
    assert result.model_dump(mode="json")["rate_limit"]["status"] == 429
