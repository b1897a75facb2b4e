"""The one reading of an HTTP ``Retry-After`` header: the model calls' record, the Studio, GitHub and target clients."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

__all__ = ["retry_after_seconds"]


def retry_after_seconds(value: str | None, *, now: datetime | None = None) -> float | None:
    """``Retry-After`` as seconds from now (delta-seconds or an HTTP date), None when absent or unreadable."""
    if not value or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # an HTTP date is always in GMT (RFC 9110)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
