"""The evidence tables of one CopilotResult (`copilot-eval inspect`): overview, tools, content items,
host requests, capture errors, MCP servers, warnings, subagents. Tables fold long cells to the
terminal's width. Every recorded string is printed as plain text: a server chose it, so neither
Rich markup in it nor a terminal control character takes effect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table

from copilot_eval.reports.console import make_console
from copilot_eval.reports.evidence_words import (
    annotation_tags,
    clipped,
    item_facts,
    item_kind,
    ordered_requests,
    played_on_text,
    progress_text,
    request_action,
    request_asked,
    request_kind,
    request_policy,
)
from copilot_eval.untrusted.terminal import terminal_line

if TYPE_CHECKING:
    from copilot_eval.evidence import CopilotResult

TEXT_LIMIT = 120
"""Characters of an item's text or an answer shown in the terminal; the full length is said."""


def plain(value: Any) -> Any:
    """``value`` as Rich text that is never read as markup, control characters shown as escapes (lines kept)."""
    return terminal_line(value, one_line=False)


def _short(text: str) -> str:
    # One line per cell: the terminal view is a summary, the evidence file holds the text whole.
    shown, note = clipped(text, TEXT_LIMIT)
    return shown.replace("\r\n", "\n").replace("\n", " ⏎ ") + (f" … ({note})" if note else "")


def render_result(result: CopilotResult, source: Path, console: Any = None) -> None:
    """Print the evidence tables of ``result`` (read from ``source``) to ``console`` (default: stdout)."""
    console = console or make_console()
    overview = Table(title=f"Session evidence: {source}", show_header=False)
    overview.add_column(overflow="fold")
    overview.add_column(overflow="fold")
    overview.add_row("success", str(result.success))
    overview.add_row("stop reason", str(result.stop_reason))
    overview.add_row("error", plain(result.error or "-"))
    overview.add_row("model", plain(result.model_used or "unknown"))
    overview.add_row("turns", str(len(result.turns)))
    overview.add_row("final response", plain(result.final_response or "-"))
    overview.add_row("evidence complete", str(result.evidence_complete))
    overview.add_row("tokens", ", ".join(f"{k}={v}" for k, v in result.token_usage.items()) or "unknown")
    overview.add_row(
        "premium requests", "unknown" if result.total_premium_requests is None else str(result.total_premium_requests)
    )
    if (played := played_on_text(result.played_on.model_dump() if result.played_on else None)) is not None:
        overview.add_row("played on", plain(played))
    console.print(overview)

    if result.all_tool_calls:
        console.print(_tool_table(result))
    if any(call.content_items for call in result.all_tool_calls):
        console.print(_content_table(result))
    if result.host_requests:
        console.print(_host_request_table(result))
    if result.capture_errors:
        errors = Table(title="Capture errors")
        errors.add_column("kind")
        errors.add_column("call id")
        errors.add_column("message")
        for error in result.capture_errors:
            errors.add_row(error.kind, plain(error.call_id or ""), plain(error.message))
        console.print(errors)
    if result.mcp_servers:
        console.print(mcp_server_table(result.mcp_servers))
    if result.customizations:
        console.print(customization_table(result.customizations))
    for warning in result.warnings:
        console.print(plain("warning: ").stylize("yellow", 0, 8) + plain(warning), highlight=False)
    if result.subagent_invocations:
        console.print(_subagent_table(result))


def _subagent_table(result: CopilotResult) -> Any:
    children = Table(title="Subagents")
    for column in ("name", "kind", "status", "duration ms", "child turns", "child tools"):
        children.add_column(column)
    for invocation in result.subagent_invocations:
        child = invocation.result
        children.add_row(
            plain(invocation.name or "?"),
            plain(invocation.kind or "?"),
            plain(invocation.status or "?"),
            "" if invocation.duration_ms is None else f"{invocation.duration_ms:g}",
            "-" if child is None else str(len(child.turns)),
            "-" if child is None else str(len(child.all_tool_calls)),
        )
    return children


def _tool_table(result: CopilotResult) -> Any:
    progress = any(call.progress is not None for call in result.all_tool_calls)
    tools = Table(title="Tool calls")
    for column in ("call id", "tool", "completed", "outcome", "evidence", "error", *(["progress"] if progress else [])):
        tools.add_column(column, overflow="fold")
    for call in result.all_tool_calls:
        row = [
            plain(call.call_id or "?"),
            plain(call.name or "?"),
            str(call.completion_received),
            call.outcome,
            "complete" if call.evidence_complete else "incomplete",
            plain(call.error or ""),
        ]
        if progress:
            row.append(plain(progress_text(call.progress.model_dump() if call.progress else None) or ""))
        tools.add_row(*row)
    return tools


def _content_table(result: CopilotResult) -> Any:
    """Every content item of every call, in order: kind, what identifies it, its tags, its text cut short."""
    table = Table(title="Content items")
    for column in ("call id", "#", "type", "item", "annotations", "text"):
        table.add_column(column, overflow="fold")
    for call in result.all_tool_calls:
        for number, content in enumerate(call.content_items, start=1):
            item = content.model_dump(mode="json", exclude={"data"})
            text = item.get("text")
            table.add_row(
                plain(call.call_id or "?"),
                str(number),
                plain(item_kind(item)),
                plain("; ".join(item_facts(item))),
                plain(", ".join(annotation_tags(item))),
                plain(_short(text) if isinstance(text, str) else ""),
            )
    return table


def _host_request_table(result: CopilotResult) -> Any:
    """The requests to the user and the client in the order they were asked, with the policy's answer."""
    table = Table(title="Requests to the user and the client")
    for column in ("#", "kind", "asked by", "what was asked", "answer", "answered by"):
        table.add_column(column, overflow="fold")
    requests = ordered_requests([request.model_dump(mode="json") for request in result.host_requests])
    for number, request in enumerate(requests, start=1):
        answer = request.get("answer")
        if answer is not None and not isinstance(answer, str):
            answer = json.dumps(answer, ensure_ascii=False)
        table.add_row(
            str(number),
            plain(request_kind(request)),
            plain(request.get("asked_by") or "unknown"),
            plain("\n".join(_short(line) for line in request_asked(request))),
            plain(request_action(request) + (f": {_short(answer)}" if answer is not None else "")),
            plain(request_policy(request)),
        )
    return table


def mcp_server_table(servers: Any) -> Any:
    """A table of MCP server statuses: name, status, tools loaded, error."""
    table = Table(title="MCP servers")
    for column in ("server", "status", "tools loaded", "error"):
        table.add_column(column, overflow="fold")
    for server in servers:
        table.add_row(
            plain(server.name),
            plain(server.status or "unknown"),
            "unknown" if server.tools_loaded is None else str(server.tools_loaded),
            plain(server.error or ""),
        )
    return table


def customization_table(files: Any) -> Any:
    """A table of customization files: status, kind, scope, path, applyTo, and why one was not delivered."""
    table = Table(title="Customization files (instructions, AGENTS.md, prompt files)")
    for column in ("status", "kind", "scope", "file", "applyTo", "why"):
        table.add_column(column, overflow="fold")
    for item in files:
        table.add_row(
            plain(item.status or "unknown"),
            plain(item.kind),
            plain(item.scope),
            plain(item.path),
            plain(item.apply_to or ""),
            plain(item.reason or ""),
        )
    return table


__all__ = ["TEXT_LIMIT", "customization_table", "mcp_server_table", "plain", "render_result"]
