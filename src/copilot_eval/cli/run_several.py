"""What `copilot-eval run` prints for several surfaces (``--agent`` repeated): the comparison table.

Not a command of its own: the surfaces are planned, played and finished below (``runs.plan``,
``commands.run``); each has its folder under ``--out``, and ``comparison.json`` beside them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from copilot_eval.evalsets import EvalTestSet
from copilot_eval.reports.run_words import confirmed_by_text, limitation_heading, score_text
from copilot_eval.reports.terminal import STATUS_STYLE
from copilot_eval.runs.surfaces import COMPARISON_JSON, SurfaceRun
from copilot_eval.untrusted.terminal import terminal_line, terminal_markup


def comparison_table(test_set: EvalTestSet, runs: list[SurfaceRun]) -> Any:
    """A rich Table: one row per case, one status column per surface, then a totals row."""

    table = Table(title=terminal_line(f"{test_set.name}: {len(runs)} surfaces"))
    table.add_column("#", justify="right")
    table.add_column("question", overflow="fold", max_width=40)
    for surface in runs:
        table.add_column(terminal_line(surface.label))
    for case in sorted(test_set.cases, key=lambda c: c.conversation_number):
        cells: list[Any] = [str(case.conversation_number), terminal_line(case.question)]
        for surface in runs:
            mine = [
                r.effective_status
                for r in surface.run.results or []
                if r.conversation_number == case.conversation_number
            ]
            cells.append(" ".join(f"[{STATUS_STYLE[s]}]{s.value}[/]" for s in mine) or "-")
        table.add_row(*cells)
    table.add_section()
    table.add_row(
        "",
        "score (passed / failed / errors)",
        *[f"{score_text(s.run)} ({s.run.passed}/{s.run.failed}/{s.run.errored or 0})" for s in runs],
    )
    return table


def print_comparison(test_set: EvalTestSet, runs: list[SurfaceRun], console: Console, out: Path) -> None:
    """Print the comparison table, each surface's limitation and standing, and where the files are."""
    console.print(comparison_table(test_set, runs))
    for surface in runs:
        run = surface.run
        if (heading := limitation_heading(run)) is not None:
            confirmed = confirmed_by_text(run)
            text = f"{run.runtime_limitation} {confirmed}" if confirmed else run.runtime_limitation
            label = terminal_markup(surface.label)
            console.print(f"[bold yellow]{label}: {heading}:[/] {terminal_markup(text)}", highlight=False)
        console.print(
            f"{terminal_markup(surface.label)}: confidence {run.confidence.value}; run in {surface.output_dir}",
            highlight=False,
        )
    console.print(f"comparison: {out / COMPARISON_JSON}", highlight=False)


__all__ = ["comparison_table", "print_comparison"]
