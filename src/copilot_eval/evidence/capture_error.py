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
]


class CaptureError(BaseModel):
    """One missing or conflicting record; the original events stay in ``raw_events``."""

    kind: CaptureErrorKind
    message: str
    call_id: str | None = None
    event_id: str | None = None

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"
