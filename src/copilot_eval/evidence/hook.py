"""What each session hook decided when the runtime called it: ours (the tool budget) and the user's.

The runtime calls one handler per hook type. When copilot-eval needs a hook of its own (the
pre-tool-use hook that enforces ``max_tool_calls``) and the user gave hooks through
``extra_config``, both run at every invocation; the runtime sees one combined answer, and this
record keeps each handler's own.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.evidence.tool_call import ToolCallRef

OURS = "copilot-eval max_tool_calls"
"""``decided_by`` of the hook copilot-eval installs to enforce the tool budget."""
THEIRS = "extra_config hooks"
"""``decided_by`` of a hook the user gave in ``extra_config={"hooks": {...}}``."""


class HookDecision(ToolCallRef):
    """One handler's answer at one hook invocation.

    ``hook`` is the runtime's hook type (``preToolUse``, ``postToolUse``, ``sessionStart``, ...).
    ``decision`` is what the handler decided where its hook type decides something
    (``permissionDecision`` of a pre-tool-use hook: ``allow``, ``deny``, ``ask``; ``decision`` of a
    prompt, agent-stop or subagent-stop hook: ``block``, ``allow``); ``None`` when it returned no
    decision (it let the call through unchanged). ``returned`` is the handler's output as it gave
    it, ``None`` when it returned nothing. ``error`` is what the handler raised; the runtime is then
    answered as if that handler had returned nothing, as the plain SDK does.
    """

    # Optional fields alike in shape to HostRequest's, TranscriptEvent's, Finding's and TargetTurn's: what a
    # hook handler answered, not what the runtime asked, a transcript shows or a scan found; kept apart.
    hook: str
    decided_by: str
    decision: str | None = None
    reason: str | None = None
    returned: dict[str, Any] | None = None
    error: str | None = None

    @property
    def refused(self) -> bool:
        """The handler refused: a pre-tool-use ``deny``, or a ``block``."""
        return self.decision in ("deny", "block")
