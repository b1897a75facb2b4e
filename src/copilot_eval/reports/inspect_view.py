"""The evidence tables of one CopilotResult (`copilot-eval inspect`): overview, tools, capture errors,
MCP servers, warnings, subagents. Tables fold long cells to the terminal's width."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from copilot_eval.evidence import CopilotResult


def render_result(result: CopilotResult, source: Path, console: Any = None) -> None:
    """Print the evidence tables of ``result`` (read from ``source``) to ``console`` (default: stdout)."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    overview = Table(title=f"Session evidence: {source}", show_header=False)
    overview.add_column(overflow="fold")
    overview.add_column(overflow="fold")
    overview.add_row("success", str(result.success))
    overview.add_row("stop reason", str(result.stop_reason))
    overview.add_row("error", result.error or "-")
    overview.add_row("model", result.model_used or "unknown")
    overview.add_row("turns", str(len(result.turns)))
    overview.add_row("final response", result.final_response or "-")
    overview.add_row("evidence complete", str(result.evidence_complete))
    overview.add_row("tokens", ", ".join(f"{k}={v}" for k, v in result.token_usage.items()) or "unknown")
    overview.add_row(
        "premium requests", "unknown" if result.total_premium_requests is None else str(result.total_premium_requests)
    )
    console.print(overview)

    if result.all_tool_calls:
        tools = Table(title="Tool calls")
        for column in ("call id", "tool", "completed", "outcome", "evidence", "error"):
            tools.add_column(column)
        for call in result.all_tool_calls:
            tools.add_row(
                call.call_id or "?",
                call.name or "?",
                str(call.completion_received),
                call.outcome,
                "complete" if call.evidence_complete else "incomplete",
                call.error or "",
            )
        console.print(tools)
    if result.capture_errors:
        errors = Table(title="Capture errors")
        errors.add_column("kind")
        errors.add_column("call id")
        errors.add_column("message")
        for error in result.capture_errors:
            errors.add_row(error.kind, error.call_id or "", error.message)
        console.print(errors)
    if result.mcp_servers:
        console.print(mcp_server_table(result.mcp_servers))
    for warning in result.warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}", highlight=False)
    if result.subagent_invocations:
        children = Table(title="Subagents")
        for column in ("name", "kind", "status", "duration ms", "child turns", "child tools"):
            children.add_column(column)
        for invocation in result.subagent_invocations:
            child = invocation.result
            children.add_row(
                invocation.name or "?",
                invocation.kind or "?",
                invocation.status or "?",
                "" if invocation.duration_ms is None else f"{invocation.duration_ms:g}",
                "-" if child is None else str(len(child.turns)),
                "-" if child is None else str(len(child.all_tool_calls)),
            )
        console.print(children)


def mcp_server_table(servers: Any) -> Any:
    """A table of MCP server statuses: name, status, tools loaded, error."""
    from rich.table import Table

    table = Table(title="MCP servers")
    for column in ("server", "status", "tools loaded", "error"):
        table.add_column(column, overflow="fold")
    for server in servers:
        table.add_row(
            server.name,
            server.status or "unknown",
            "unknown" if server.tools_loaded is None else str(server.tools_loaded),
            server.error or "",
        )
    return table


__all__ = ["mcp_server_table", "render_result"]
