"""Copilot Studio's evaluation REST API (makerevaluation, api-version 2024-10-01): the wire client.

``StudioEvalClient`` speaks the six operations for one agent (list and get test sets, start a run,
list and get runs, download the tested agent's snapshot), ``wait_for_run`` polls a run to its end,
and every failure is a ``StudioEvalError`` that says what to do. This package knows nothing of
test sets or runs of our own: turning a platform run into an EvalRun is ``copilot_eval.platform_runs``.
"""

from __future__ import annotations

from copilot_eval.studio_eval.auth import scope_for_api, token_from_env, token_from_login
from copilot_eval.studio_eval.client import StudioEvalClient, TokenProvider
from copilot_eval.studio_eval.errors import (
    READ_PERMISSION,
    REPORTED_DAILY_RUNS,
    WRITE_PERMISSION,
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    Operation,
    PermissionDeniedError,
    PublishedRunError,
    RunInProgressError,
    RunTimeoutError,
    ServerError,
    StudioEvalError,
    StudioTokenError,
    ThrottledError,
    TransportError,
    UnexpectedResponseError,
)
from copilot_eval.studio_eval.ledger import LedgerEntry, RunLedger
from copilot_eval.studio_eval.polling import DEFAULT_POLL_S, DEFAULT_TIMEOUT_S, progress_line, wait_for_run
from copilot_eval.studio_eval.shapes import (
    API_VERSION,
    DEFAULT_API_URL,
    StudioCaseResult,
    StudioMetricResult,
    StudioRun,
    StudioRunStatus,
    StudioSnapshot,
    StudioTestSet,
)

__all__ = [
    "API_VERSION",
    "DEFAULT_API_URL",
    "DEFAULT_POLL_S",
    "DEFAULT_TIMEOUT_S",
    "READ_PERMISSION",
    "REPORTED_DAILY_RUNS",
    "WRITE_PERMISSION",
    "AuthenticationError",
    "BadRequestError",
    "LedgerEntry",
    "NotFoundError",
    "Operation",
    "PermissionDeniedError",
    "PublishedRunError",
    "RunInProgressError",
    "RunLedger",
    "RunTimeoutError",
    "ServerError",
    "StudioCaseResult",
    "StudioEvalClient",
    "StudioEvalError",
    "StudioMetricResult",
    "StudioRun",
    "StudioRunStatus",
    "StudioSnapshot",
    "StudioTestSet",
    "StudioTokenError",
    "ThrottledError",
    "TokenProvider",
    "TransportError",
    "UnexpectedResponseError",
    "progress_line",
    "scope_for_api",
    "token_from_env",
    "token_from_login",
    "wait_for_run",
]
