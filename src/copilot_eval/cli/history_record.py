"""Every command that writes a run folder records it in the history the same way (`run`, `merge`, `studio-eval`, `analyze`).

The options are ``--history URL`` (else env ``COPILOT_EVAL_HISTORY``, else the project's
``.copilot-eval/history.db``) and ``--no-history``; writing the history never fails the command:
a problem is one warning on stderr naming the database, and the exit code stays what it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

RecordHistoryOption = Annotated[
    str | None,
    typer.Option(
        "--history",
        metavar="URL",
        help="History database the run is added to: sqlite:///PATH, postgresql://..., a file path, or off "
        "(default: env COPILOT_EVAL_HISTORY, else .copilot-eval/history.db in the project folder).",
    ),
]
NoHistoryOption = Annotated[
    bool, typer.Option("--no-history", help="Do not add the run to the history (the same as --history off).")
]


def record_history(folders: list[Path], history: str | None, *, no_history: bool = False, source: str) -> list[str]:
    """Add finished run folders to the history; the line to show, or a warning on stderr (never a failure)."""
    if no_history or not folders:
        return []
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.history import record_after_run

    note = record_after_run(folders, history=history, source=source)
    if note is None:
        return []
    if not note.ok:
        typer.echo(note.line, err=True)
        return []
    return [note.line, *(f"people and the judges: {notice}" for notice in note.notices)]


__all__ = ["NoHistoryOption", "RecordHistoryOption", "record_history"]
