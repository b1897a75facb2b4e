"""Platform error text where an answer belongs: the one detector for both places Copilot Studio puts it.

A Copilot Studio agent reports its own failures inside an ordinary message ("Sorry. Error code:
SystemError.", "... Error code: 3000."), and the Evaluate tab writes such text where the agent's
answer goes in its exports. Either way the case is ``error`` (the platform failed), never ``fail``.
Both families of codes seen in exports are listed; any ``Error code: X`` sentence counts, named or
numbered, listed or not, since new codes appear; a bare listed code counts as the whole answer.
"""

from __future__ import annotations

import re

#: Codes of the classic evaluation runtime.
CLASSIC_ERROR_CODES: tuple[str, ...] = (
    "SystemError",
    "GenAISearchandSummarizeRateLimitReached",
    "FlowActionTimedOut",
    "ContentError",
)
#: Codes of the newer harness behind the Evaluate tab.
HARNESS_ERROR_CODES: tuple[str, ...] = (
    "SYSTEM_ERROR",
    "RATE_LIMIT_REACHED",
    "CONVERSATION_BUSY",
    "QUOTA_EXCEEDED",
    "CONTENT_FILTERED",
)
KNOWN_ERROR_CODES: tuple[str, ...] = CLASSIC_ERROR_CODES + HARNESS_ERROR_CODES

_ERROR_CODE = re.compile(r"error\s*code\s*[:=]\s*([A-Za-z0-9][A-Za-z0-9_.-]*)", re.IGNORECASE)


def platform_error_code(answer: str | None) -> str | None:
    """The platform error code ``answer`` carries instead of an answer, or ``None`` for a real answer."""
    if not answer:
        return None
    match = _ERROR_CODE.search(answer)
    if match:
        return match.group(1).rstrip(".")
    bare = answer.strip().rstrip(".")
    return bare if bare in KNOWN_ERROR_CODES else None


__all__ = ["CLASSIC_ERROR_CODES", "HARNESS_ERROR_CODES", "KNOWN_ERROR_CODES", "platform_error_code"]
