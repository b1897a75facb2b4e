"""How long the GitHub client waits on a rate-limited answer: GitHub's rules, Retry-After read as elsewhere."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from email.utils import format_datetime

import pytest

from copilot_eval.github.errors import rate_limit_wait

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC).timestamp()


def test_retry_after_in_seconds_or_as_an_http_date_is_the_wait():
    assert rate_limit_wait(403, {"retry-after": "7"}, "secondary rate limit", now=NOW) == 7.0
    later = format_datetime(datetime.fromtimestamp(NOW + 90, UTC), usegmt=True)
    assert rate_limit_wait(429, {"retry-after": later}, "", now=NOW) == 90.0


@pytest.fixture
def far_from_gmt(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process's local time zone set five hours behind GMT for one test."""
    monkeypatch.setenv("TZ", "EST+5")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("far_from_gmt")
def test_a_date_without_a_zone_is_read_as_gmt_not_as_local_time():
    later = format_datetime(datetime.fromtimestamp(NOW + 30, UTC)).replace("+0000", "-0000")
    assert rate_limit_wait(429, {"retry-after": later}, "", now=NOW) == 30.0


def test_an_unreadable_retry_after_falls_back_to_the_reset_time_then_a_minute():
    reset = {"retry-after": "soon", "x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 20)}
    assert rate_limit_wait(403, reset, "API rate limit exceeded", now=NOW) == 21.0
    assert rate_limit_wait(429, {"retry-after": "soon"}, "", now=NOW) == 60.0


def test_a_status_other_than_403_or_429_is_no_rate_limit():
    assert rate_limit_wait(500, {"retry-after": "7"}, "rate limit", now=NOW) is None
    assert rate_limit_wait(403, {}, "Resource not accessible by integration", now=NOW) is None
