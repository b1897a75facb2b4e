"""The state of one MCP server of a run, as the runtime reported it."""

from __future__ import annotations

import re

from pydantic import BaseModel


class McpServerStatus(BaseModel):
    """One configured MCP server: did it start, why not, and how many tools it gave the agent.

    ``status`` is the runtime's own word (``connected``, ``failed``, ``needs-auth``, ``pending``,
    ``disabled``, ``stopped``); ``None`` means the runtime never reported this server.
    ``tools_loaded`` is ``None`` when the runtime did not say how many tools it loaded.
    """

    name: str
    status: str | None = None
    error: str | None = None
    error_classification: str | None = None
    tools_loaded: int | None = None
    optional: bool = False

    @property
    def started(self) -> bool:
        """Whether the server connected (its tools were offered to the model)."""
        return self.status == "connected"

    @property
    def failed(self) -> bool:
        """Whether the runtime reported that the server could not start or be used."""
        return self.status in FAILED_STATES


FAILED_STATES = frozenset({"failed", "needs-auth"})
"""Runtime statuses meaning a server's tools are not available to the agent."""


_STARTUP_FAILURE = re.compile(r"\bMCP server (['\"]).*?\1 could not start\b")


def startup_failure_text(name: str, reason: str) -> str:
    """The one wording of a server that could not start, which ``names_startup_failure`` recognises."""
    return f"MCP server {name!r} could not start: {reason}"


def names_startup_failure(text: str | None) -> bool:
    """Whether ``text`` (a case's failure reason) says an MCP server of the agent could not start."""
    return bool(text) and _STARTUP_FAILURE.search(text or "") is not None
