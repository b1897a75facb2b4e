"""The terminal summary of a run: a per-case table, the totals, and any runtime limitation.

Questions, answers, reasons, names and the limitation are not ours: each reaches the console
through the one terminal sanitiser (``copilot_eval.untrusted.terminal``), as text Rich never reads
as markup, with control characters shown as escapes and no line of its own."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from copilot_eval.evalsets import CaseStatus, EvalRun, EvalTestSet
from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.reports.execution_words import retry_notes
from copilot_eval.reports.phase_words import phase_line
from copilot_eval.reports.repeat_words import (
    JUDGE_UNSTABLE,
    case_flag,
    case_label,
    case_records,
    judge_cost_line,
    rate_text,
    repeat_lines,
    shown_status,
    shows_repeats,
)
from copilot_eval.reports.run_words import confirmed_by_text, drafts_text, limitation_heading, score_over_graded
from copilot_eval.reports.workspace_words import findings_lines
from copilot_eval.untrusted.terminal import terminal_line, terminal_markup

#: The rich style of each case status, wherever a status is printed.
STATUS_STYLE = {
    CaseStatus.PASS: "green",
    CaseStatus.FAIL: "red",
    CaseStatus.ERROR: "yellow",
    CaseStatus.UNKNOWN: "dim",
    CaseStatus.NOT_RUN: "blue",
}


def _cut(text: str | None, limit: int = 60) -> Any:
    return terminal_line(" ".join((text or "").split()), limit=limit)


NARROW = 80
"""The width the cells' cuts are set for; a wider console (a CI log: COLUMNS or 200) keeps more of each."""


def summary_table(run: EvalRun, test_set: EvalTestSet, *, width: int | None = None) -> Any:
    """A rich Table with one row per result: case, repeat, status, answer and reason, cut to fit ``width``."""
    scale = max(1.0, (width or NARROW) / NARROW)
    question_cut, answer_cut, reason_cut = (round(limit * scale) for limit in (40, 60, 70))
    questions = {key: case.question for key, case in case_turns(test_set).items()}
    repeats = any(r.repeat_index for r in run.results or [])
    table = Table(title=terminal_line(f"{run.test_set_name}: {run.agent_name or 'agent'}"), show_lines=False)
    table.add_column("#", justify="right")
    if repeats:
        table.add_column("rep", justify="right")
    for name in ("status", "question", "answer", "reason"):
        table.add_column(name, overflow="fold")
    for result in run.results or []:
        status = result.effective_status
        turn = result.turn or 1
        cells = [str(result.conversation_number) + (f".{turn}" if turn > 1 else "")]
        if repeats:
            cells.append(str(result.repeat_index or 0))
        style = "magenta" if result.judge_unstable else STATUS_STYLE[status]
        cells += [
            f"[{style}]{shown_status(result)}[/]",
            _cut(questions.get((result.conversation_number, turn)) or result.case_id, question_cut),
            _cut(result.actual_response, answer_cut),
            _cut(result.failure_reason, reason_cut),
        ]
        table.add_row(*cells)
    return table


def repeat_table(run: EvalRun) -> Any:
    """A rich Table with one row per case over its tries (rate, interval, verdict); ``None`` for a run played once."""
    if not shows_repeats(run):
        return None
    table = Table(title="each case over its tries", show_lines=False)
    for name in ("case", "tries", "pass rate", "verdict"):
        table.add_column(name, overflow="fold")
    for record in case_records(run) or []:
        flag = case_flag(record)
        style = "magenta" if JUDGE_UNSTABLE in flag else STATUS_STYLE.get(record.verdict, "") if record.verdict else ""
        table.add_row(
            terminal_line(case_label(record)),
            str(record.attempts),
            rate_text(record),
            terminal_line(flag, style=style),
        )
    return table


def totals_line(run: EvalRun) -> str:
    """One line: score over graded cases (n/a when nothing could be graded), the four counts, the confidence."""
    return (
        f"score {score_over_graded(run)}; "
        f"[green]{run.passed} passed[/] [red]{run.failed} failed[/] [yellow]{run.errored or 0} errors[/] "
        f"{run.not_graded or 0} unknown"
        + (f" [blue]{run.not_run} not run[/]" if run.not_run else "")
        + f"; confidence {run.confidence.value}"
    )


def print_summary(run: EvalRun, test_set: EvalTestSet, console: Any, *, extra: list[str] | None = None) -> None:
    """Print the table, the totals, extra lines (repeats, outputs) and the limitation if any."""
    console.print(summary_table(run, test_set, width=getattr(console, "width", None)))
    if (repeats := repeat_table(run)) is not None:
        console.print(repeats)
    console.print(totals_line(run))
    judges = judge_cost_line(run)
    medians = run.phase_medians
    phases = phase_line(medians)
    if medians is not None and phases is not None:
        phases = f"time by phase (median over {medians.sessions} sessions): {phases}"
    # extra lines are the command's own (output paths): printed as text, one line each, like the rest
    drafts = drafts_text(run)
    shown = [
        *repeat_lines(run),
        *([judges] if judges else []),
        *([phases] if phases else []),
        *([drafts] if drafts else []),
    ]
    for line in [*shown, *(extra or [])]:
        console.print(terminal_line(line), highlight=False)
    for line in retry_notes(run):  # worker names come from the cluster: printed as text, not markup
        console.print(terminal_line(line), highlight=False)
    for line in findings_lines(run):  # paths the agent chose: shown as text, never markup
        console.print(terminal_line(line, style="bold yellow"), highlight=False)
    if run.note:
        console.print(terminal_line(run.note, style="dim"))
    if (heading := limitation_heading(run)) is not None:
        confirmed = confirmed_by_text(run)
        text = f"{run.runtime_limitation} {confirmed}" if confirmed else run.runtime_limitation
        console.print(f"[bold yellow]{terminal_markup(heading)}:[/] {terminal_markup(text)}", highlight=False)


__all__ = ["STATUS_STYLE", "print_summary", "repeat_table", "summary_table", "totals_line"]
