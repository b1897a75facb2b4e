"""What the runtime asked permission for, and what was decided."""

from __future__ import annotations

from typing import Any

from copilot_eval.evidence.tool_call import ToolCallRef


class PermissionRecord(ToolCallRef):
    """One permission request and its decision (``None`` when no decision was seen).

    ``decision`` is the runtime's kind of result (``approved``, ``denied-interactively-by-user``,
    ...); ``feedback`` the text the model was given with a rejection, ``None`` when it was given
    none (a plain rejection) or no decision was seen.
    """

    request_id: str | None = None
    kind: str | None = None
    details: dict[str, Any] | None = None
    decision: str | None = None
    feedback: str | None = None
