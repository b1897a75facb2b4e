"""Platform error text inside an answer: the Evaluate tab writes it where the agent's answer goes.

Such a case is ``error`` (the platform failed), never ``fail``. Both families of codes seen in
exports are listed; any ``Error code: X`` sentence counts, listed or not, since new codes appear.
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

_ERROR_CODE = re.compile(r"error\s*code\s*[:=]\s*([A-Za-z][A-Za-z0-9_.-]*)", re.IGNORECASE)


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
