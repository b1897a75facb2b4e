"""What can go wrong talking to the evaluation API, each error saying what to do about it.

Errors of httpx and HTTP error statuses become these exceptions at the client's boundary. Each
names the operation and the ids it used, carries the HTTP status and the platform's error code,
and ends with a hint. ``infrastructure`` separates the platform's troubles (busy, throttled, 5xx,
no response, a timeout) from input the user must fix (credentials, ids, a malformed request):
the command line turns them into different exit codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypedDict, Unpack

from copilot_eval.retry_after import retry_after_seconds

READ_PERMISSION = "CopilotStudio.MakerOperations.Read"
WRITE_PERMISSION = "CopilotStudio.MakerOperations.ReadWrite"
#: Runs per agent per 24 hours that clients report before HTTP 429 (a client figure, not in the reference).
REPORTED_DAILY_RUNS = 20


# Alike in shape only to security/rates.py's SecuritySummary (a frozen record with defaulted fields).
@dataclass(frozen=True)
class Operation:
    """One call of the API: its name, method and path, the ids it used, the permission it needs."""

    name: str
    method: str
    path: str
    ids: dict[str, str] = field(default_factory=dict)
    permission: str = READ_PERMISSION

    def describe(self) -> str:
        """``run test set (POST .../testsets/X/run)``."""
        return f"{self.name} ({self.method} {self.path})"


class _Details(TypedDict, total=False):
    """What a subclass passes on to StudioEvalError beside the message (its keyword arguments)."""

    operation: Operation | None
    status: int | None
    code: str | None
    hint: str | None


# Alike in shape to github/errors.py on purpose: another API, other statuses and hints (see there).
class StudioEvalError(Exception):
    """A failed call to the evaluation API: status (None without a response), code, message and a hint."""

    infrastructure = False

    def __init__(
        self,
        message: str,
        *,
        operation: Operation | None = None,
        status: int | None = None,
        code: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.message, self.operation, self.status, self.code, self.hint = message, operation, status, code, hint
        super().__init__(self.describe())

    def describe(self) -> str:
        """One paragraph: what failed, what the platform said, what to do."""
        head = self.operation.describe() + ": " if self.operation else ""
        status = f"HTTP {self.status}" if self.status is not None else "no HTTP response"
        said = f"{status}{' ' + self.code if self.code else ''}: {self.message}".rstrip(": ")
        if not self.hint:
            return f"{head}{said}"
        return f"{head}{said}{' ' if said.endswith('.') else '. '}{self.hint}"


class StudioTokenError(StudioEvalError):
    """No token could be had for the Power Platform API; the message says what to set or run."""


class TransportError(StudioEvalError):
    """No HTTP response at all (connection refused, DNS, TLS, a read timeout)."""

    infrastructure = True


class BadRequestError(StudioEvalError):
    """HTTP 400: the platform could not read the request."""


class AuthenticationError(StudioEvalError):
    """HTTP 401: no token, an expired one, or one for another resource."""


class PermissionDeniedError(StudioEvalError):
    """HTTP 403: the signed-in user's token lacks the delegated permission the call needs."""


class NotFoundError(StudioEvalError):
    """HTTP 404: an environment, bot, test set or run id that the platform does not know."""


class RunInProgressError(StudioEvalError):
    """HTTP 409 (422 from some clients): a run is already in progress for this agent."""

    infrastructure = True


class ThrottledError(StudioEvalError):
    """HTTP 429: too many requests; for a run request, the daily run limit of the agent."""

    infrastructure = True

    def __init__(self, message: str, *, retry_after_s: float | None = None, **kwargs: Unpack[_Details]) -> None:
        self.retry_after_s = retry_after_s
        self.resets_at = datetime.now(UTC) + timedelta(seconds=retry_after_s) if retry_after_s is not None else None
        super().__init__(message, **kwargs)


class PublishedRunError(StudioEvalError):
    """HTTP 500 on a run of the published agent: a known platform problem; the draft runs."""

    infrastructure = True


class ServerError(StudioEvalError):
    """HTTP 5xx: the platform failed."""

    infrastructure = True


class UnexpectedResponseError(StudioEvalError):
    """A success status whose body does not have the documented shape."""

    infrastructure = True


class RunTimeoutError(StudioEvalError):
    """The run did not finish within ``--timeout-s``; it goes on on the platform."""

    infrastructure = True

    def __init__(self, message: str, *, run_id: str, state: str | None, **kwargs: Unpack[_Details]) -> None:
        self.run_id, self.state = run_id, state
        super().__init__(message, **kwargs)


def _not_found_hint(operation: Operation) -> str:
    ids = operation.ids
    agent = f"bot {ids.get('bot')} of environment {ids.get('environment')}"
    if "run" in ids:
        return (
            f"run {ids['run']} was not found for {agent}: check the run id (results are kept 89 days; "
            "`copilot-eval studio-eval list --runs` lists the runs the platform still has)"
        )
    if "test set" in ids:
        return (
            f"test set {ids['test set']} was not found in {agent}: `copilot-eval studio-eval list` lists "
            "the test sets (or the environment or bot id is wrong)"
        )
    return (
        f"{agent} was not found: check --environment-id and --bot-id (Copilot Studio: the agent's "
        "Settings, Advanced, Metadata; or the agent's URL)"
    )


class _ErrorFields(TypedDict):
    operation: Operation
    status: int
    code: str | None


_BUSY = (
    "a run is already in progress for this agent (one run at a time per agent): wait for it to finish, then start again"
)
# The statuses whose exception and hint are the same whatever the call was.
_FIXED: dict[int, tuple[type[StudioEvalError], str]] = {
    400: (BadRequestError, "the request was malformed; report this with the command used"),
    401: (
        AuthenticationError,
        "the token was refused (missing, expired, or not for the Power Platform API): sign in again "
        "with `copilot-eval login --client-id ID`, or put a fresh user-delegated token in the --token-env "
        "variable (app-only tokens are not accepted)",
    ),
    409: (RunInProgressError, _BUSY),
    422: (RunInProgressError, _BUSY),
}
_PUBLISHED_500 = (
    "the platform answered HTTP 500 to a run of the published agent, a known platform problem "
    "(its message may ask for a version the documented request has no field for): run the draft "
    "instead (leave out --published)"
)
_POST_FAILED = (
    "the platform failed; the run may or may not have started: `copilot-eval studio-eval list --runs` "
    "shows it before you start another"
)


def _permission_hint(operation: Operation) -> str:
    return (
        f"the signed-in user's token lacks the delegated Power Platform API permission "
        f"{operation.permission} (needed to {operation.name}; {READ_PERMISSION} lists and reads, "
        f"{WRITE_PERMISSION} also starts runs): add it to the app registration, grant consent, and "
        "sign in again; the user also needs maker access to the agent"
    )


def error_for(
    status: int,
    code: str | None,
    message: str,
    *,
    operation: Operation,
    retry_after: str | None = None,
    published: bool = False,
) -> StudioEvalError:
    """The exception for an error status of ``operation``, with the hint that says what to do."""
    kwargs: _ErrorFields = {"operation": operation, "status": status, "code": code}
    if status in _FIXED:
        kind, hint = _FIXED[status]
        return kind(message, hint=hint, **kwargs)
    if status == 403:
        return PermissionDeniedError(message, hint=_permission_hint(operation), **kwargs)
    if status == 404:
        return NotFoundError(message, hint=_not_found_hint(operation), **kwargs)
    if status == 429:
        seconds = retry_after_seconds(retry_after)
        when = (
            f"the platform says to retry after {seconds:g} s"
            if seconds is not None
            else "the response does not say when the limit resets"
        )
        return ThrottledError(message, retry_after_s=seconds, hint=when, **kwargs)
    if status == 500 and published:
        return PublishedRunError(message, hint=_PUBLISHED_500, **kwargs)
    hint = _POST_FAILED if operation.method == "POST" else "the platform failed; try again later"
    return ServerError(message, hint=hint, **kwargs)


__all__ = [
    "READ_PERMISSION",
    "REPORTED_DAILY_RUNS",
    "WRITE_PERMISSION",
    "AuthenticationError",
    "BadRequestError",
    "NotFoundError",
    "Operation",
    "PermissionDeniedError",
    "PublishedRunError",
    "RunInProgressError",
    "RunTimeoutError",
    "ServerError",
    "StudioEvalError",
    "StudioTokenError",
    "ThrottledError",
    "TransportError",
    "UnexpectedResponseError",
    "error_for",
    "retry_after_seconds",
]
