"""The history in a terminal: the runs, and per series the runs over time and the cases that need a look.

Names, questions, commits and branches come from run folders and agents, not from us: each cell
goes through the one terminal sanitiser (``copilot_eval.untrusted.terminal``)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from copilot_eval.history.trends import CaseTrend, SeriesTrends, cell_status, ranked, segment_words
from copilot_eval.reports.run_words import NOTHING_GRADED
from copilot_eval.untrusted.terminal import terminal_line, terminal_markup

_GLYPHS = {"pass": "[green]✓[/]", "fail": "[red]✗[/]", "error": "[yellow]E[/]", "unknown": "[bright_black]?[/]"}
_SHOWN_CELLS = 20
_SHOWN_CASES = 30


def _when(run: dict[str, Any]) -> str:
    moment = run["run_at"] or run["recorded_at"]
    return f"{moment:%Y-%m-%d %H:%M}" if moment else "unknown"


def _short(text: str | None, limit: int = 40) -> Any:
    return terminal_line(" ".join((text or "").split()), limit=limit)


def _rate(rate: float | None, interval: tuple[float, float] | None, *, none: str = "unknown") -> str:
    if rate is None:
        return none
    return f"{rate:g}% [{interval[0]:g}-{interval[1]:g}]" if interval else f"{rate:g}%"


def _commit(run: dict[str, Any] | None) -> str:
    if run is None:
        return "-"
    commit = (run["git_commit"] or "")[:10] or "commit unknown"
    return f"run {run['id']} ({commit})"


def _counts(run: dict[str, Any]) -> str:
    def shown(value: int | None) -> str:
        return "?" if value is None else str(value)

    return f"{run['passed']}/{run['failed']}/{shown(run['errored'])}/{shown(run['not_graded'])}"


def _spent(run: dict[str, Any]) -> str:
    """``10,599 tok · judges 320 tok (3 %)``: the run's tokens, the judges' share; ``unknown`` before usage was kept."""
    usage = run.get("usage")
    if not usage:
        return "unknown"

    def tokens(side: dict[str, Any]) -> str:
        known, unknown = side.get("tokens", 0), side.get("tokensUnknown", 0)
        if unknown and not known:
            return "? tok"
        return f"{known:,}{'+' if unknown else ''} tok"

    agent, judges = usage.get("agent", {}), usage.get("judges", {})
    shown = tokens(agent)
    if judges.get("tokens") or judges.get("tokensUnknown"):
        whole = agent.get("tokens", 0) + judges.get("tokens", 0)
        share = f" ({100 * judges.get('tokens', 0) / whole:.0f} %)" if whole else ""
        shown += f" · judges {tokens(judges)}{share}"
    if run.get("not_run"):
        shown += f" · {run['not_run']} not run"
    return shown


def _spent_and_found(run: dict[str, Any]) -> str:
    """What the run spent, then what the transcript scanners found (when it was scanned)."""
    findings = run.get("findings")
    return _spent(run) + (f" · {sum(findings.values())} finding(s)" if findings is not None else "")


def run_part(run: dict[str, Any]) -> str:
    """What part of a sharded run this is: ``shard 1/2 in run 5``, ``merge of shards 1, 2 of 3 (partial)``, or ``""``."""
    held = f" in run {run['merged_into']}" if run.get("merged_into") is not None else ""
    if run.get("shard_index") is not None:
        return f"shard {run['shard_index']}/{run['shard_count']}{held}"
    if run.get("merge_shard_count") is not None:
        shards = ", ".join(str(n) for n in run.get("merged_shards") or [])
        partial = " (partial)" if run.get("merge_complete") is False else ""
        return f"merge of shards {shards} of {run['merge_shard_count']}{partial}{held}"
    return ""


def display_order(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Newest first by the minute shown (then the one stored last), each merged run followed by what it holds.

    Runs of one minute are shown in the order they were stored, newest first, not by the seconds
    the table does not show; a shard or partial merge a listed merged run holds comes right after it.
    """
    ordered = sorted(runs, key=lambda run: (_when(run), run["id"]), reverse=True)
    listed = {run["id"] for run in ordered}
    held: dict[int, list[dict[str, Any]]] = {}
    for run in ordered:
        if run.get("merged_into") in listed:
            held.setdefault(run["merged_into"], []).append(run)
    shown: list[dict[str, Any]] = []

    def place(run: dict[str, Any]) -> None:
        shown.append(run)
        for part in sorted(held.get(run["id"], []), key=lambda r: (r.get("shard_index") or 0, r["id"])):
            place(part)

    for run in ordered:
        if run.get("merged_into") not in listed:
            place(run)
    return shown


def runs_table(runs: list[dict[str, Any]], *, title: str) -> Any:
    """A rich Table of stored runs, newest first, shards and merges marked (see :func:`display_order`)."""
    table = Table(title=title)
    for column in (
        "id",
        "ran",
        "part",
        "test set",
        "agent",
        "model",
        "score",
        "pass/fail/error/unknown",
        "spent",
        "limitation",
        "commit",
    ):
        # The id, the time and the score are what a reader looks for: never cut (the other columns wrap).
        table.add_column(column, no_wrap=column in ("id", "ran", "score"))
    for run in display_order(runs):
        if not run["passed"] + run["failed"]:
            score = NOTHING_GRADED  # as every view of a run says it (reports.run_words)
        else:
            score = "unknown" if run["score_percent"] is None else f"{run['score_percent']:g}%"
        limitation = run["limitation_standing"] or ("suspected" if run["runtime_limitation"] else "")
        table.add_row(
            str(run["id"]),
            _when(run),
            run_part(run),
            terminal_line(run["test_set_name"]),
            terminal_line(run["agent_name"] or "unknown"),
            terminal_line(run["agent_model"] or "unknown"),
            score,
            _counts(run),
            _spent_and_found(run),
            terminal_line(limitation),
            terminal_line(
                ((run["git_commit"] or "")[:10] or "unknown") + (f" {run['git_branch']}" if run["git_branch"] else "")
            ),
        )
    return table


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def agreement_table(found: list[Any], *, min_kappa: float, title: str) -> Any:
    """Per grader: its agreement with people (``history.agreement.GraderAgreement`` rows), flagged below ``min_kappa``."""
    table = Table(title=title)
    for column in ("grader", "reviewed", "TPR", "TNR", "accuracy", "kappa [95%]", "not graded", ""):
        table.add_column(column, overflow="fold")
    for item in found:
        figures = item.agreement
        kappa, interval = figures.kappa, figures.kappa_interval
        shown = (
            "-" if kappa is None else f"{kappa:.2f}" + (f" [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else "")
        )
        flag = f"[red]below {min_kappa:g}[/]" if item.below(min_kappa) else ""
        table.add_row(
            terminal_line(item.grader),
            str(figures.count),
            _share(figures.true_positive_rate),
            _share(figures.true_negative_rate),
            _share(figures.accuracy),
            shown,
            str(item.not_graded),
            flag,
        )
    return table


def _sequence(trend: CaseTrend) -> str:
    glyphs = []
    for run, statuses, _, _ in trend.cells[-_SHOWN_CELLS:]:
        glyph = _GLYPHS.get(cell_status(statuses), "[blue]~[/]")
        glyphs.append(f"[dim]{glyph}[/]" if run["runtime_limitation"] else glyph)
    return "".join(glyphs)


def print_series(series: SeriesTrends, console: Any) -> None:
    """Print one series: its runs over time, its limitation episodes, and its cases, most urgent first."""
    console.print(
        f"[bold]{terminal_markup(series.test_set_name)}[/] against "
        f"[bold]{terminal_markup(series.agent_name or 'an unnamed agent')}[/]: "
        f"{_count(len(series.runs), 'run')}, {_count(len(series.cases), 'case')}",
        highlight=False,
    )
    runs = Table(title="runs over time (oldest first)")
    for column in ("run", "ran", "commit", "pass rate [95% interval]", "pass/fail/error/unknown", "limitation"):
        runs.add_column(column)
    for point in series.runs[-_SHOWN_CELLS:]:
        run = point.run
        limitation = (run["limitation_standing"] or "suspected") if point.limitation else ""
        runs.add_row(
            str(run["id"]),
            _when(run),
            terminal_line((run["git_commit"] or "")[:10] or "unknown"),
            _rate(point.pass_rate, point.interval, none=NOTHING_GRADED),  # a run's rate is None only then
            _counts(run),
            terminal_line(limitation),
        )
    console.print(runs)
    _print_changes(series, console)
    cases = Table(title=f"cases, regressed and flaky first (last {_SHOWN_CELLS} runs; dim = under a limitation)")
    for column in ("case", "question", "statuses", "pass rate [95% interval]", "flakiness", "errors", "regressed at"):
        cases.add_column(column)
    for trend in ranked(series.cases)[:_SHOWN_CASES]:
        cases.add_row(*_case_cells(trend))
    console.print(cases)
    if len(series.cases) > _SHOWN_CASES:
        console.print(f"... and {len(series.cases) - _SHOWN_CASES} more cases (--json lists all)", highlight=False)


def _print_changes(series: SeriesTrends, console: Any) -> None:
    """Print where the series changed under its runs: new segments, changed tools, limitation episodes."""
    for point in series.runs:
        if point.starts_segment:
            console.print(
                f"[yellow]new segment[/] from run {point.run['id']}: {segment_words(point.starts_segment)} changed "
                "(flakiness is counted within segments, never across a change)",
                highlight=False,
            )
        changed = point.tools_changed
        if changed and any(changed.values()):
            parts = [f"{kind} {', '.join(names)}" for kind, names in changed.items() if names]
            shown = terminal_markup("; ".join(parts))
            console.print(f"[yellow]tools changed[/] in run {point.run['id']}: {shown}", highlight=False)
    for episode in series.episodes:
        state = "ongoing" if episode.ongoing else "ended"
        console.print(
            f"[yellow]limitation episode[/]: runs {episode.first_run}-{episode.last_run} ({_count(episode.runs, 'run')}, "
            f"{terminal_markup(episode.standing or 'standing unknown')}, {state})",
            highlight=False,
        )


def _case_cells(trend: CaseTrend) -> tuple[Any, ...]:
    """A case's row of the cases table: key, question, statuses, rate, flakiness, errors, where it regressed."""
    regression = trend.regression
    regressed = _commit(regression.run) if regression else "-"
    if regression is not None and regression.last_pass is None:
        regressed += ", never passed"
    return (
        terminal_line(trend.case["case_key"]),
        _short(trend.case["question"]),
        _sequence(trend),
        _rate(trend.pass_rate, trend.interval),
        "unknown" if trend.flakiness is None else f"{trend.flakiness:.2f}",
        str(trend.counts["error"]),
        terminal_line(regressed),
    )


def _count(number: int, noun: str) -> str:
    """``1 run``, ``2 runs``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


__all__ = ["print_series", "runs_table"]
