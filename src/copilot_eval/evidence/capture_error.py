"""A problem found while mapping runtime events to evidence."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

CaptureErrorKind = Literal[
    "missing_completion",
    "unmatched_completion",
    "conflicting_duplicate",
    "cancelled",
    "uncorrelated_event",
    "result_mismatch",
    "unparsed_event",
    "child_missing",
    # The runtime's own trace disagrees with the event stream (capture.trace_check); each names both sides.
    "trace_tool_call_unmatched",
    "trace_tool_call_differs",
    "trace_tool_outcome_differs",
    "trace_model_calls_differ",
    "trace_usage_differs",
    "trace_subagents_differ",
]


class CaptureError(BaseModel):
    """One missing or conflicting record; the original events stay in ``raw_events``."""

    kind: CaptureErrorKind
    message: str
    call_id: str | None = None
    event_id: str | None = None
    span_id: str | None = None  # the runtime trace's span on the other side of a trace_* disagreement

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"
