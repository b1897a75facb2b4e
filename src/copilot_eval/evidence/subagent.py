"""A subagent invocation observed in the parent's event stream."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from copilot_eval.evidence.result import CopilotResult


class SubagentInvocation(BaseModel):
    """A runtime subagent (the ``task`` tool) or a custom-agent dispatch.

    ``result`` is the child's own evidence when its events were captured; ``None`` means no child
    trace was captured, and none is invented.
    """

    invocation_id: str | None = None
    name: str | None = None
    kind: str | None = None
    status: str | None = None
    duration_ms: float | None = None
    total_tokens: int | None = None
    total_tool_calls: int | None = None
    parent_call_id: str | None = None
    error: str | None = None
    result: "CopilotResult | None" = None
    details: dict[str, Any] | None = None
