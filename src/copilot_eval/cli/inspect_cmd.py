"""`copilot-eval inspect FILE`: the evidence summary of a saved event log or a saved result.

FILE is either a session event log (JSONL, one ``SessionEvent.to_dict()`` per line) or a
CopilotResult saved as JSON (``result.save(path)``, the evidence files of ``run`` and of
``--copilot-evidence-dir``): a JSON object with a ``schema_version`` is read as evidence.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from copilot_eval.evidence import CopilotResult


def _render(result: CopilotResult, source: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
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
    overview.add_row("premium requests", "unknown" if result.total_premium_requests is None else str(result.total_premium_requests))
    console.print(overview)

    if result.all_tool_calls:
        tools = Table(title="Tool calls")
        for column in ("call id", "tool", "completed", "outcome", "evidence", "error"):
            tools.add_column(column)
        for call in result.all_tool_calls:
            tools.add_row(call.call_id or "?", call.name or "?", str(call.completion_received),
                          call.outcome, "complete" if call.evidence_complete else "incomplete", call.error or "")
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
        servers = Table(title="MCP servers")
        for column in ("server", "status", "tools loaded", "error"):
            servers.add_column(column, overflow="fold")
        for server in result.mcp_servers:
            servers.add_row(server.name, server.status or "unknown",
                            "unknown" if server.tools_loaded is None else str(server.tools_loaded), server.error or "")
        console.print(servers)
    for warning in result.warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}", highlight=False)
    if result.subagent_invocations:
        children = Table(title="Subagents")
        for column in ("name", "kind", "status", "duration ms", "child turns", "child tools"):
            children.add_column(column)
        for invocation in result.subagent_invocations:
            child = invocation.result
            children.add_row(invocation.name or "?", invocation.kind or "?", invocation.status or "?",
                             "" if invocation.duration_ms is None else f"{invocation.duration_ms:g}",
                             "-" if child is None else str(len(child.turns)),
                             "-" if child is None else str(len(child.all_tool_calls)))
        console.print(children)


def _saved_result(path: Path) -> CopilotResult | None:
    """The CopilotResult saved in ``path``, or ``None`` when the file is not a saved result."""
    import json

    from copilot_eval.evidence.native_json import load_result

    try:
        with path.open(encoding="utf-8") as handle:
            if handle.read(1) != "{":
                return None
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None  # an event log (one object per line) or unreadable: the log reader says why
    if not isinstance(document, dict) or "schema_version" not in document:
        return None
    try:
        return load_result(path)
    except ValueError as exc:
        typer.echo(f"error: {path}: not a readable saved result: {str(exc)[:500]}", err=True)
        raise typer.Exit(code=2) from None


def inspect(
    events_file: Annotated[Path, typer.Argument(metavar="FILE", help="A JSONL session event log (one "
                           "SessionEvent.to_dict() per line) or a saved CopilotResult JSON (evidence file).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the full native JSON result instead of tables.")] = False,
) -> None:
    """Summarise a saved event log or evidence file: success, tools, MCP servers, capture errors, subagents."""
    from copilot_eval.capture import EventLogError, load_event_log, result_from_events

    result = _saved_result(events_file)
    if result is None:
        try:
            events = load_event_log(events_file)
        except EventLogError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(code=2) from exc
        result = result_from_events(events)
    if as_json:
        import json

        from copilot_eval.evidence.native_json import result_to_dict

        typer.echo(json.dumps(result_to_dict(result), indent=2, ensure_ascii=False))
        return
    _render(result, events_file)


def register(app: typer.Typer) -> None:
    """Add the `inspect` command to the app."""
    app.command(name="inspect")(inspect)
