"""Printing what ``runs.finish`` did for a command, then ending by its verdict: the same for every writer."""

from __future__ import annotations

from collections.abc import Callable

import typer
from rich.console import Console

from copilot_eval.cli.exits import leave
from copilot_eval.reports.compare_views import print_comparison
from copilot_eval.reports.console import make_console
from copilot_eval.reports.terminal import print_summary
from copilot_eval.runs.finish import STDOUT, Finished, FinishedFolder
from copilot_eval.untrusted.terminal import terminal_line, terminal_markup, terminal_text


def finished_console(markdown: str | None) -> Console:
    """The console a writer's summary goes to: stderr when ``--markdown -`` takes stdout for the Markdown."""
    return make_console(stderr=markdown == STDOUT)


def print_finished(
    finished: Finished,
    console: Console,
    *,
    extra: list[str] | Callable[[FinishedFolder], list[str]] | None = None,
    summaries: bool = True,
) -> typer.Exit:
    """Each folder's summary (or only its files' lines), the history's line, the comparisons; the Exit to raise.

    ``extra`` are lines for every summary (what the writer itself did), or a function giving a folder's
    own. Warnings go to stderr, ``--markdown -`` to stdout, last. The Exit carries the finisher's verdict
    as it is: a command's own problems are in it already (``finish_run_folders(met=...)``).
    """

    several = len(finished.folders) > 1
    # Lines of the whole run (what each surface spent, each already labelled) are said once, not
    # under every surface: N surfaces would otherwise print N x N spend lines.
    shared = [*([] if callable(extra) else list(extra or [])), *finished.gate_lines]
    for index, item in enumerate(finished.folders):
        lines = [*(extra(item) if callable(extra) else [] if several else shared), *item.lines]
        if index == len(finished.folders) - 1:
            lines += finished.history_lines  # recorded once, for every folder
        if summaries:
            if several and item.label is not None:
                console.print(f"[bold]surface {terminal_markup(item.label)}[/]", highlight=False)
            print_summary(item.run, item.test_set, console, extra=lines)
        else:
            for line in lines:
                shown = f"{item.label}: {line}" if several and item.label else line
                console.print(terminal_line(shown), highlight=False)
        if item.comparison is not None:
            print_comparison(item.comparison, console)
    for line in shared if several else []:  # gate lines name a baseline from the history: text, never markup
        console.print(terminal_line(line), highlight=False)
    for warning in finished.history_warnings:
        typer.echo(terminal_text(warning, one_line=False), err=True)
    if finished.markdown is not None:
        typer.echo(finished.markdown, nl=False)
    return leave(finished.verdict)


__all__ = ["print_finished"]
