"""What can go wrong talking to GitHub's REST API, each error saying what is missing.

Statuses become these exceptions at the client's boundary: 401 is the token (none, or one GitHub
does not know), 403 the token's permission (a workflow's ``GITHUB_TOKEN`` needs
``pull-requests: write`` to comment), 404 the repository or the pull request (or a private
repository the token cannot see, which GitHub answers the same way), 422 the body. A rate limit
waited out too often, a 5xx or no answer at all is ``infrastructure``: GitHub's trouble, not the
user's input, and the command exits with another code.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from copilot_eval.retry_after import retry_after_seconds

WRITE_PERMISSION = "pull-requests: write"
"""The workflow permission a job's GITHUB_TOKEN needs to comment on a pull request."""


# Alike in shape to studio_eval/errors.py on purpose: two APIs whose statuses mean different things
# (GitHub's 422 and secondary rate limits; Copilot Studio's 409 run in progress and daily-limit 429).
class GitHubError(Exception):
    """A failed call to GitHub: the status (None without a response), GitHub's message and what to do."""

    infrastructure = False

    def __init__(self, message: str, *, status: int | None = None, hint: str | None = None) -> None:
        self.message, self.status, self.hint = message, status, hint
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line: the status, what GitHub said, what to do."""
        said = f"{'HTTP ' + str(self.status) if self.status is not None else 'no HTTP response'}: {self.message}"
        return f"{said.rstrip('.')}. {self.hint}" if self.hint else said


class GitHubTokenError(GitHubError):
    """No token to send: the variable the caller named is unset or empty."""


class AuthenticationError(GitHubError):
    """HTTP 401: no token was sent, or GitHub does not know it (expired, revoked, mistyped)."""


class PermissionDeniedError(GitHubError):
    """HTTP 403 (not a rate limit): the token may not write comments here."""


class NotFoundError(GitHubError):
    """HTTP 404: the repository, the pull request or the comment does not exist for this token."""


class ValidationError(GitHubError):
    """HTTP 422: GitHub refused the body (too long, missing)."""


class RateLimitedError(GitHubError):
    """Still rate limited after the bounded retries, or asked to wait longer than the client will."""

    infrastructure = True


class ServerError(GitHubError):
    """HTTP 5xx or an answer that is not GitHub's JSON."""

    infrastructure = True


class TransportError(GitHubError):
    """No HTTP response (connection refused, DNS, TLS, a timeout)."""

    infrastructure = True


def github_message(body: Any) -> str:
    """GitHub's ``message`` and each ``errors[].message`` of an error body, joined (the text when not JSON)."""
    if not isinstance(body, dict):
        return str(body or "")[:500]
    parts = [str(body.get("message") or "").strip()]
    for item in body.get("errors") or []:
        if isinstance(item, dict) and item.get("message"):
            parts.append(str(item["message"]))
        elif isinstance(item, str):
            parts.append(item)
    return ": ".join(part for part in parts if part)[:500]


def rate_limit_wait(status: int, headers: Any, message: str, *, now: float | None = None) -> float | None:
    """Seconds to wait before retrying a rate-limited answer, or None when the answer is no rate limit.

    GitHub's rule: ``retry-after`` when present; else, with ``x-ratelimit-remaining: 0``, until
    ``x-ratelimit-reset`` (UTC epoch seconds); else, for a 403/429 saying it is a secondary rate
    limit (or a 429 saying nothing), at least a minute.
    """
    if status not in (403, 429):
        return None
    now = datetime.now(UTC).timestamp() if now is None else now
    told = retry_after_seconds(headers.get("retry-after"), now=datetime.fromtimestamp(now, UTC))
    if told is not None:
        return told
    if headers.get("x-ratelimit-remaining") == "0" and headers.get("x-ratelimit-reset"):
        try:
            return max(0.0, float(headers["x-ratelimit-reset"]) - now) + 1.0  # the reset second itself
        except ValueError:
            pass
    if status == 429 or "rate limit" in message.lower():
        return 60.0
    return None


__all__ = [
    "WRITE_PERMISSION",
    "AuthenticationError",
    "GitHubError",
    "GitHubTokenError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitedError",
    "ServerError",
    "TransportError",
    "ValidationError",
    "github_message",
    "rate_limit_wait",
]
