"""`copilot-eval inspect FILE`: the evidence summary of a saved event log or a saved result.

FILE is either a session event log (JSONL, one ``SessionEvent.to_dict()`` per line) or a
CopilotResult saved as JSON (``result.save(path)``, the evidence files of ``run`` and of
``--copilot-evidence-dir``): a JSON object with a ``schema_version`` is read as evidence.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.bounded_json import JsonRefused, load_json_file
from copilot_eval.capture import EventLogError, load_event_log, result_from_events
from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.options import JsonOption
from copilot_eval.evidence import CopilotResult
from copilot_eval.evidence.native_json import load_result
from copilot_eval.evidence.result import TRACE_SUFFIX, result_to_dict
from copilot_eval.reports.inspect_view import render_result


def _render(result: CopilotResult, source: Path) -> None:
    render_result(result, source)


def _saved_result(path: Path) -> CopilotResult | None:
    """The CopilotResult saved in ``path``, or ``None`` when the file is not a saved result."""
    try:
        with path.open(encoding="utf-8") as handle:
            if handle.read(1) != "{":
                return None
        document = load_json_file(path)  # someone's saved result: size and depth bounded
    except JsonRefused as exc:
        raise bad_input(str(exc)) from None
    except (OSError, ValueError, UnicodeDecodeError):
        return None  # an event log (one object per line) or unreadable: the log reader says why
    if not isinstance(document, dict) or "schema_version" not in document:
        return None
    try:
        return load_result(path)
    except ValueError as exc:
        raise bad_input(f"{path}: not a readable saved result: {str(exc)[:500]}") from None


def _is_trace(path: Path) -> bool:
    """Whether ``path`` is the runtime's OpenTelemetry trace of a session (its first line a span), not an event log."""
    try:
        with path.open(encoding="utf-8") as handle:
            first = handle.readline(1_000_000).strip()
        line = json.loads(first) if first else None
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(line, dict) and line.get("type") == "span" and "spanId" in line


def _trace_evidence(path: Path) -> CopilotResult:
    """The evidence a trace file belongs to (``x.trace.jsonl`` beside ``x.json``), or exit 2 saying what the file is."""
    evidence = (
        path.with_name(path.name.removesuffix(TRACE_SUFFIX) + ".json") if path.name.endswith(TRACE_SUFFIX) else None
    )
    result = _saved_result(evidence) if evidence is not None and evidence.is_file() else None
    if result is None:
        raise bad_input(
            f"{path}: this is the runtime's OpenTelemetry trace of a session, not an event log; inspect the "
            "evidence file it was saved beside (NAME.json for NAME.trace.jsonl), which holds the trace and the session"
        )
    typer.echo(f"{path} is the runtime's trace of a session; showing the evidence it belongs to, {evidence}", err=True)
    return result


def inspect(
    events_file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="A JSONL session event log (one "
            "SessionEvent.to_dict() per line) or a saved CopilotResult JSON (evidence file).",
        ),
    ],
    as_json: JsonOption = False,
) -> None:
    """Summarise a saved event log or evidence file: success, tools, MCP servers, capture errors, subagents."""
    result = _saved_result(events_file)
    if result is None and _is_trace(events_file):
        result = _trace_evidence(events_file)
    if result is None:
        try:
            events = load_event_log(events_file)
        except EventLogError as exc:
            raise bad_input(str(exc)) from exc
        result = result_from_events(events)
    if as_json:
        typer.echo(json.dumps(result_to_dict(result), indent=2, ensure_ascii=False))
        return
    _render(result, events_file)


def register(app: typer.Typer) -> None:
    """Add the `inspect` command to the app."""
    app.command(name="inspect")(inspect)
