"""What a finished run prints: lines of the whole run once, however many surfaces it played."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from copilot_eval.cli.finished import print_finished
from copilot_eval.exit_codes import PASSED


def _finished(labels: list[str]) -> SimpleNamespace:
    folders = [
        SimpleNamespace(label=label, lines=[f"report: {label}/report.html"], comparison=None) for label in labels
    ]
    return SimpleNamespace(
        folders=folders,
        history_lines=["history: stored"],
        history_warnings=[],
        markdown=None,
        verdict=PASSED,
        gate_lines=[],
    )


def test_each_surfaces_spend_is_printed_once_not_under_every_surface():
    labels = ["draft", "published", "preview"]
    spent = [f"{label}: spent 1,000 tokens" for label in labels]
    out = io.StringIO()
    print_finished(_finished(labels), Console(file=out, width=200), extra=spent, summaries=False)
    text = out.getvalue()
    for line in spent:
        assert text.count(line) == 1, text
    assert all(text.count(f"{label}: report: {label}/report.html") == 1 for label in labels)
    assert text.count("history: stored") == 1


def test_the_whole_runs_lines_of_several_surfaces_are_printed_as_text_not_markup():
    finished = _finished(["draft", "published"])
    finished.gate_lines = ["gate against [bold]set[/bold]@agent: passed"]  # a baseline named in someone's file
    out = io.StringIO()
    print_finished(finished, Console(file=out, width=200), summaries=False)
    assert "gate against [bold]set[/bold]@agent: passed" in out.getvalue()
