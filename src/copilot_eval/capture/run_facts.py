"""What only the live runner knows about a run, handed to capture alongside the events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from copilot_eval.evidence import RequestAuditRecord, SkillDiscovery, StopReason


@dataclass(frozen=True)
class RunFacts:
    """Runner-side facts that no session event carries (stop reason, timings, guards, cleanup).

    A saved event log has no RunFacts; capture then leaves ``stop_reason`` at ``None`` and judges
    success from the events alone.
    """

    stop_reason: StopReason | None = None
    error: str | None = None
    duration_ms: float | None = None
    working_directory: str | None = None
    configuration: dict[str, Any] | None = None
    request_audit: list[RequestAuditRecord] | None = None
    tool_calls_admitted: int | None = None
    skill_discovery: SkillDiscovery | None = None
    agent_name: str | None = None
    prompt: str | None = None
    # Calls the tool budget refused before their handler ran: their outcome is known (refused).
    refused_call_ids: frozenset[str] = field(default_factory=frozenset)
    # Handlers that never returned and were given up on: their outcome is unknown.
    abandoned_call_ids: frozenset[str] = field(default_factory=frozenset)
    # call id -> "ExceptionType: message" of a Python handler that raised; the runtime only
    # reports a generic failure text, so this is the only place the real exception survives.
    tool_exceptions: dict[str, str] = field(default_factory=dict)
    cleanup_error: str | None = None
    # The runtime's MCP server list taken before the first prompt (rows of name, status, error,
    # optional); None when the run had no MCP servers or never got that far.
    mcp_servers: list[dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        # Accept any iterable of ids from the runner, but keep the record immutable.
        object.__setattr__(self, "refused_call_ids", frozenset(self.refused_call_ids))
        object.__setattr__(self, "abandoned_call_ids", frozenset(self.abandoned_call_ids))
