"""The options by which every command that writes a run folder records it in the history (the finisher records it).

The options are ``--history URL`` (else env ``COPILOT_EVAL_HISTORY``, else the project's
``.copilot-eval/history.db``) and ``--no-history``; writing the history never fails the command:
a problem is one warning on stderr naming the database, and the exit code stays what it was.
"""

from __future__ import annotations

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


__all__ = ["NoHistoryOption", "RecordHistoryOption"]
