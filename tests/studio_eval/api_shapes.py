"""The evaluation API's documented shapes (api-version 2024-10-01) as JSON Schemas, written from the notes.

Kept apart from ``copilot_eval.studio_eval.shapes`` on purpose: the fake is checked against what
the reference documents, not against what our own reader accepts.
"""

from __future__ import annotations

from typing import Any

RUN_STATES = ["Queued", "InProgress", "Completed", "Failed", "Cancelled", "Abandoned", "Deleted", "Unknown"]
EXECUTION_STATES = [
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
]
CASE_STATES = ["Running", "Completed", "Error", "Cancelled", "Unknown"]
METRIC_STATUSES = ["Pass", "Fail", "Error", "Unknown"]
METRIC_TYPES = [
    "GeneralQuality",
    "CompareMeaning",
    "TextSimilarity",
    "ExactMatch",
    "AnyKeywordMatch",
    "AllKeywordMatch",
    "CapabilityUse",
    "CustomLabels",
    "Unknown",
]
ERROR_REASONS = [
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
]
# ISO 8601 UTC times as the API writes them (jsonschema checks "format" only with extra packages).
_TIME = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"}
_UUID = {"type": "string", "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"}
_COUNT = {"type": "integer", "minimum": 0}

TEST_SET: dict[str, Any] = {
    "type": "object",
    "required": ["id", "displayName", "state", "totalTestCases", "auditInfo"],
    "properties": {
        "id": _UUID,
        "displayName": {"type": "string"},
        "description": {"type": "string"},
        "state": {"enum": ["Active", "Inactive", "Unknown"]},
        "totalTestCases": _COUNT,
        "auditInfo": {
            "type": "object",
            "required": ["createdBy", "createdTimeUtc", "modifiedBy", "modifiedTimeUtc"],
            "properties": {"createdTimeUtc": _TIME, "modifiedTimeUtc": _TIME},
        },
    },
    "additionalProperties": False,
}
RUN_STATUS: dict[str, Any] = {
    "type": "object",
    "required": [
        "runId",
        "state",
        "executionState",
        "lastUpdatedAt",
        "callbackUri",
        "testCasesProcessed",
        "totalTestCases",
    ],
    "properties": {
        "runId": _UUID,
        "state": {"enum": RUN_STATES},
        "executionState": {"enum": EXECUTION_STATES},
        "lastUpdatedAt": _TIME,
        "callbackUri": {"type": "string"},
        "testCasesProcessed": _COUNT,
        "totalTestCases": _COUNT,
    },
    "additionalProperties": False,
}
METRIC_RESULT: dict[str, Any] = {
    "type": "object",
    "required": ["type", "result"],
    "properties": {
        "type": {"enum": METRIC_TYPES},
        "result": {
            "type": "object",
            "required": ["status", "aiResultReason", "errorReason", "data"],
            "properties": {
                "status": {"enum": METRIC_STATUSES},
                "aiResultReason": {"type": ["string", "null"]},
                "errorReason": {"enum": [*ERROR_REASONS, None]},
                # data keys are lower-cased (camelCase counts as lower-cased first letters in practice)
                "data": {"type": "object", "propertyNames": {"pattern": "^[a-z]"}},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}
TEST_CASE_RESULT: dict[str, Any] = {
    "type": "object",
    "required": ["testCaseId", "state", "metricsResults"],
    "properties": {
        "testCaseId": _UUID,
        "state": {"enum": CASE_STATES},
        "metricsResults": {"type": "array", "items": METRIC_RESULT},
    },
    "additionalProperties": False,
}
TEST_RUN: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "state", "startTime", "testSetId", "totalTestCases", "testCasesResults"],
    "properties": {
        "id": _UUID,
        "name": {"type": "string"},
        "state": {"enum": RUN_STATES},
        "startTime": _TIME,
        "endTime": {"anyOf": [_TIME, {"type": "null"}]},
        "testSetId": _UUID,
        "totalTestCases": _COUNT,
        "mcsConnectionId": {"type": "string"},
        "ownerId": {"type": "string"},
        "cdsBotId": {"type": "string"},
        "environmentId": {"type": "string"},
        "testCasesResults": {"type": "array", "items": TEST_CASE_RESULT},
        # read by clients while polling, not in the documented TestRun
        "executionState": {"enum": EXECUTION_STATES},
        "testCasesProcessed": _COUNT,
    },
    "additionalProperties": False,
}
ERROR_BODY: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}


def listing(item: dict[str, Any]) -> dict[str, Any]:
    """``{"value": [item, ...]}``."""
    return {"type": "object", "required": ["value"], "properties": {"value": {"type": "array", "items": item}}}
