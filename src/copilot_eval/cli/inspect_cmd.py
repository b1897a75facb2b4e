"""`copilot-eval inspect EVENTS.jsonl`: the evidence summary of a saved session event log."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from copilot_eval.evidence import CopilotResult


def _render(result: CopilotResult, source: Path) -> None:
    from copilot_eval.reports.inspect_view import render_result

    render_result(result, source)


def inspect(
    events_file: Annotated[Path, typer.Argument(help="A JSONL session event log (one SessionEvent.to_dict() per line).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the full native JSON result instead of tables.")] = False,
) -> None:
    """Summarise a saved session event log: success, tools, usage, capture errors, subagents."""
    from copilot_eval.capture import EventLogError, load_event_log, result_from_events

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
