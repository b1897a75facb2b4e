"""The evaluation API's documented shapes (api-version 2024-10-01), read defensively into plain data.

Every field is optional on the way in: a missing field is ``None``, never a default that looks
like a fact; a state or status outside the documented enumerations is kept as written, so the
mapping above can say "unrecognised" instead of guessing. The raw JSON is kept on each record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

API_VERSION = "2024-10-01"
DEFAULT_API_URL = "https://api.powerplatform.com"

#: Documented enumerations (the notes' "Enumerations (documented)").
RUN_STATES = ("Queued", "InProgress", "Completed", "Failed", "Cancelled", "Abandoned", "Deleted", "Unknown")
EXECUTION_STATES = (
    "Queued",
    "Initializing",
    "CreatingRunContent",
    "ProcessingRunContent",
    "EvaluatingRun",
    "Completed",
    "Failed",
    "Cancelled",
    "Abandoned",
    "Deleted",
    "Unknown",
)
CASE_STATES = ("Running", "Completed", "Error", "Cancelled", "Unknown")
METRIC_STATUSES = ("Pass", "Fail", "Error", "Unknown")
METRIC_TYPES = (
    "GeneralQuality",
    "CompareMeaning",
    "TextSimilarity",
    "ExactMatch",
    "AnyKeywordMatch",
    "AllKeywordMatch",
    "CapabilityUse",
    "CustomLabels",
    "Unknown",
)
ERROR_REASONS = (
    "AgentResponseIsNullOrEmpty",
    "EmptyOrInvalidModelResponse",
    "ExpectedInvocationStepsAreNullOrEmpty",
    "ExpectedKeywordsAreNullOrEmpty",
    "ExpectedOutputIsNullOrEmpty",
    "GraderCreationFailed",
    "InputOutputCountMismatch",
    "IntentMatchInvalidMatchType",
    "ModelLabelGraderInvalidLabel",
    "QueryIsNullOrEmpty",
    "RequestTokenLimitExceeded",
    "RetrievedKnowledgeSourcesTextsAreEmpty",
    "RetrievedKnowledgeTokenLimitExceeded",
    "UnexpectedInternalError",
)
TEST_SET_STATES = ("Active", "Inactive", "Unknown")
#: A run in one of these states will not change any more.
FINISHED_RUN_STATES = ("Completed", "Failed", "Cancelled", "Abandoned", "Deleted")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value != "" else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 time as the API writes it (``Z`` or an offset), or None when absent or unreadable."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


# Each reader below has the same from_json shape on purpose: one class per documented body of the
# API, field by field, so that a renamed field fails in the one reader that reads it.
@dataclass(frozen=True)
class StudioTestSet:
    """A test set as the API lists it (metadata only: the API returns no test cases)."""

    id: str
    display_name: str | None
    description: str | None
    state: str | None
    total_test_cases: int | None
    modified_time: datetime | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    @classmethod
    def from_json(cls, body: Any) -> StudioTestSet:
        """Read a ``TestSet`` body; ValueError when it has no id."""
        body = _dict(body)
        if not _text(body.get("id")):
            raise ValueError("a test set without an id")
        audit = _dict(body.get("auditInfo"))
        return cls(
            id=body["id"],
            display_name=_text(body.get("displayName")),
            description=_text(body.get("description")),
            state=_text(body.get("state")),
            total_test_cases=_count(body.get("totalTestCases")),
            modified_time=parse_time(audit.get("modifiedTimeUtc")),
            raw=body,
        )


@dataclass(frozen=True)
class StudioRunStatus:
    """The reply to a run request: the new run's id and its first state."""

    run_id: str
    state: str | None
    execution_state: str | None
    callback_uri: str | None
    processed: int | None
    total: int | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    @classmethod
    def from_json(cls, body: Any) -> StudioRunStatus:
        """Read a ``RunStatusResponse``; ValueError when it has no run id."""
        body = _dict(body)
        if not _text(body.get("runId")):
            raise ValueError("a run status without a runId")
        return cls(
            run_id=body["runId"],
            state=_text(body.get("state")),
            execution_state=_text(body.get("executionState")),
            callback_uri=_text(body.get("callbackUri")),
            processed=_count(body.get("testCasesProcessed")),
            total=_count(body.get("totalTestCases")),
            raw=body,
        )


@dataclass(frozen=True)
class StudioMetricResult:
    """One metric's verdict on one test case: type, status, the AI's reason, the error reason, its data."""

    type: str | None
    status: str | None
    ai_reason: str | None
    error_reason: str | None
    data: dict[str, Any]

    @classmethod
    def from_json(cls, body: Any) -> StudioMetricResult:
        """Read a ``{"type": ..., "result": {...}}`` entry of ``metricsResults``."""
        body = _dict(body)
        result = _dict(body.get("result"))
        return cls(
            type=_text(body.get("type")),
            status=_text(result.get("status")),
            ai_reason=_text(result.get("aiResultReason")),
            error_reason=_text(result.get("errorReason")),
            data=_dict(result.get("data")),
        )


@dataclass(frozen=True)
class StudioCaseResult:
    """One test case of a run: its id, its state and its metrics (no question, no answer text)."""

    test_case_id: str | None
    state: str | None
    metrics: list[StudioMetricResult]

    @classmethod
    def from_json(cls, body: Any) -> StudioCaseResult:
        """Read a ``TestCaseResult``."""
        body = _dict(body)
        metrics = body.get("metricsResults")
        return cls(
            test_case_id=_text(body.get("testCaseId")),
            state=_text(body.get("state")),
            metrics=[StudioMetricResult.from_json(m) for m in metrics] if isinstance(metrics, list) else [],
        )


@dataclass(frozen=True)
class StudioRun:
    """A run as the API returns it, with its case results once they exist."""

    id: str
    name: str | None
    state: str | None
    execution_state: str | None
    start_time: datetime | None
    end_time: datetime | None
    test_set_id: str | None
    total_test_cases: int | None
    processed: int | None
    connection_id: str | None
    results: list[StudioCaseResult]
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def finished(self) -> bool:
        """Whether the run will not change any more (Completed, Failed, Cancelled, Abandoned, Deleted)."""
        return self.state in FINISHED_RUN_STATES

    @classmethod
    def from_json(cls, body: Any) -> StudioRun:
        """Read a ``TestRun`` (``executionState`` and ``testCasesProcessed`` accepted when present)."""
        body = _dict(body)
        if not _text(body.get("id")):
            raise ValueError("a test run without an id")
        cases = body.get("testCasesResults")
        return cls(
            id=body["id"],
            name=_text(body.get("name")),
            state=_text(body.get("state")),
            execution_state=_text(body.get("executionState")),
            start_time=parse_time(body.get("startTime")),
            end_time=parse_time(body.get("endTime")),
            test_set_id=_text(body.get("testSetId")),
            total_test_cases=_count(body.get("totalTestCases")),
            processed=_count(body.get("testCasesProcessed")),
            connection_id=_text(body.get("mcsConnectionId")),
            results=[StudioCaseResult.from_json(c) for c in cases] if isinstance(cases, list) else [],
            raw=body,
        )


@dataclass(frozen=True)
class StudioSnapshot:
    """The tested agent as downloaded: the ZIP's bytes, the file name the server gave, the content type."""

    content: bytes = field(repr=False)
    file_name: str | None
    content_type: str | None


def run_request_body(*, run_name: str, published: bool, connection_id: str | None) -> dict[str, Any]:
    """The ``RunTestSetRequestBody``: an empty ``mcsConnectionId`` is an anonymous run."""
    return {
        "evaluationRunName": run_name,
        "mcsConnectionId": connection_id or "",
        "runOnPublishedBot": published,
    }


__all__ = [
    "API_VERSION",
    "CASE_STATES",
    "DEFAULT_API_URL",
    "ERROR_REASONS",
    "EXECUTION_STATES",
    "FINISHED_RUN_STATES",
    "METRIC_STATUSES",
    "METRIC_TYPES",
    "RUN_STATES",
    "TEST_SET_STATES",
    "StudioCaseResult",
    "StudioMetricResult",
    "StudioRun",
    "StudioRunStatus",
    "StudioSnapshot",
    "StudioTestSet",
    "parse_time",
    "run_request_body",
]
