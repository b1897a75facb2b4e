"""MCP server status: which servers started, which failed and why, and what that means for a run.

Measured with runtime 1.0.102: each configured server reports ``session.mcp_server_status_changed``
(``serverName``, ``status`` pending -> connected / failed, ``error``, ``errorClassification``
such as ``os_not_found`` or ``process_linux_exited``), ``session.mcp_server_tools_loaded``
(``toolCount``) once connected, and ``session.mcp_servers_loaded`` (every server's final status)
before the first turn. The runner also asks the runtime (``session.mcp.list``) before sending the
prompt; those rows arrive in ``RunFacts.mcp_servers`` and say which servers are optional.

A missing binary reads "failed to spawn MCP server process: No such file or directory (os error
2)"; a server that exits at start reads "MCP server process exited before completing the MCP
initialize handshake (exit code 3); last stderr: ...".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from copilot_eval.capture.events import event_data, event_type, int_or_none, list_or_empty, text_or_none
from copilot_eval.evidence import McpServerStatus
from copilot_eval.evidence.mcp_server import startup_failure_text


def _entry(table: dict[str, McpServerStatus], name: Any) -> McpServerStatus | None:
    if not isinstance(name, str) or not name:
        return None
    if name not in table:
        table[name] = McpServerStatus(name=name)
    return table[name]


def _apply(entry: McpServerStatus, status: Any, error: Any, classification: Any = None) -> None:
    entry.status = text_or_none(status) or entry.status
    if entry.status == "connected":
        entry.error = entry.error_classification = None  # a reconnect clears an earlier failure
    entry.error = text_or_none(error) or entry.error
    entry.error_classification = text_or_none(classification) or entry.error_classification


def mcp_server_statuses(
    events: Iterable[Mapping[str, Any]], listing: Iterable[Mapping[str, Any]] | None = None
) -> list[McpServerStatus]:
    """Every MCP server the run configured or the runtime reported, in first-seen order.

    ``listing`` holds the runner's rows (``name``, ``status``, ``error``, ``optional``); the events
    come later in the run, so where both speak the events win.
    """
    table: dict[str, McpServerStatus] = {}
    for row in listing or []:
        entry = _entry(table, row.get("name"))
        if entry is not None:
            _apply(entry, row.get("status"), row.get("error"), row.get("errorClassification"))
            entry.optional = row.get("optional") is True
    for event in events:
        kind, data = event_type(event), event_data(event)
        if data is None:
            continue
        if kind == "session.mcp_server_status_changed":
            entry = _entry(table, data.get("serverName"))
            if entry is not None:
                _apply(entry, data.get("status"), data.get("error"), data.get("errorClassification"))
        elif kind == "session.mcp_server_tools_loaded":
            entry = _entry(table, data.get("serverName"))
            if entry is not None:
                entry.tools_loaded = int_or_none(data.get("toolCount"))
        elif kind == "session.mcp_servers_loaded":
            for server in list_or_empty(data.get("servers")):
                entry = _entry(table, server.get("name")) if isinstance(server, dict) else None
                if entry is not None:
                    _apply(entry, server.get("status"), server.get("error"))
    return list(table.values())


SLOW_HANDSHAKE_HINT = (
    "; the runtime gives a stdio server a few seconds to answer its first handshake, and a server "
    "still starting then refuses the fallback handshake: this server may simply start too slowly "
    "(a Python server on a busy machine can take that long to import)"
)


def _describe(server: McpServerStatus) -> str:
    reason = server.error or f"status {server.status}"
    if server.error_classification == "protocol_version_mismatch" and "initialize handshake" in reason:
        reason += SLOW_HANDSHAKE_HINT
    return startup_failure_text(server.name, reason)


def mcp_startup_failure(servers: Iterable[McpServerStatus]) -> str | None:
    """Why the run cannot go on: the first required server that failed, or ``None``."""
    for server in servers:
        if server.failed and not server.optional:
            return f"{_describe(server)} (fix mcp_servers.{server.name}, or mark it `optional: true` to run without it)"
    return None


def mcp_warnings(servers: Iterable[McpServerStatus], *, all_failures: bool = False) -> list[str]:
    """One warning per optional server that failed (per failed server with ``all_failures``)."""
    warnings = []
    for server in servers:
        if server.failed and server.optional:
            warnings.append(f"{_describe(server)}; it is optional, so the run went on without its tools")
        elif server.failed and all_failures:
            warnings.append(_describe(server))
    return warnings
