"""How a command ends: the verdict's one line on stderr, then the exit code of its row (``copilot_eval.exit_codes``)."""

from __future__ import annotations

import typer

from copilot_eval.exit_codes import PLATFORM, UNUSABLE_INPUT, Verdict
from copilot_eval.untrusted.terminal import terminal_text


def leave(verdict: Verdict) -> typer.Exit:
    """Print the line naming the verdict's row and why (nothing for exit 0); the ``typer.Exit`` to raise."""
    if (line := verdict.line()) is not None:
        typer.echo(terminal_text(line, one_line=False), err=True)  # a message may quote a file or an answer
    return typer.Exit(verdict.code)


def bad_input(message: str) -> typer.Exit:
    """Exit 2, unusable input: ``message`` names the file, option or field and how to fix it."""
    return leave(Verdict(UNUSABLE_INPUT, message))


def platform_failed(message: str) -> typer.Exit:
    """Exit 3, the platform or the infrastructure: no verdict on the agent."""
    return leave(Verdict(PLATFORM, message))


__all__ = ["bad_input", "leave", "platform_failed"]
