"""A run comparison as a terminal table, as Markdown (pull-request comment, step summary) and as HTML."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from copilot_eval.reports.compare import KINDS, CaseChange, RunComparison
from copilot_eval.reports.html_page import badge, card, esc, page, table
from copilot_eval.reports.run_words import score_text
from copilot_eval.untrusted.markdown import md_inline
from copilot_eval.untrusted.terminal import terminal_line, terminal_text

_STYLE = {
    "regressed": "red",
    "error": "bold yellow",
    "improved": "green",
    "changed": "yellow",
    "new": "cyan",
    "removed": "magenta",
    "unchanged": "dim",
}


def _status(value: Any) -> str:
    return "-" if value is None else value.value


def _deltas(change: CaseChange) -> str:
    scores = ", ".join(f"{method} {delta:+g}" for method, delta in change.score_deltas.items())
    rates = change.rates
    if rates is not None:  # a repeated case: its pass rates over its tries, and whether they differ beyond chance
        rates = f"passed {rates}" + (" significant" if change.significant else "")
    parts = ", ".join(f"{part} {old}->{new}" for part, (old, new) in change.part_changes.items())
    return "; ".join(part for part in (rates, scores, parts) if part) or "-"


def parts_line(comparison: RunComparison) -> str | None:
    """``General quality part by part: relevance same on 5 of 6 cases, ...``; None when the runs lack the parts."""
    agreement = comparison.part_agreement()
    if not agreement:
        return None
    return "General quality part by part: " + ", ".join(
        f"{part} same on {same} of {both} case{'s' if both != 1 else ''}" for part, (same, both) in agreement.items()
    )


def _delta(comparison: RunComparison) -> str:
    delta = comparison.score_delta
    return "no score to compare" if delta is None else f"{delta:+g} points"


def _headline(comparison: RunComparison) -> str:
    base, cand = comparison.baseline, comparison.candidate
    counts = comparison.counts()
    return f"score {score_text(base)} -> {score_text(cand)} ({_delta(comparison)}); " + ", ".join(
        f"{counts[k]} {k}" for k in KINDS
    )


def comparison_table(comparison: RunComparison) -> Any:
    """A rich Table of every case that did not stay the same, most urgent first."""
    table_ = Table(title=terminal_line(f"{comparison.baseline.test_set_name}: baseline -> candidate"))
    for column in ("change", "case", "before", "after", "score delta", "question"):
        table_.add_column(column, overflow="fold")
    for kind in KINDS:
        for change in comparison.of_kind(kind):
            if kind == "unchanged" and not change.part_changes:
                continue  # an unchanged case is listed only when its quality parts differ
            table_.add_row(
                f"[{_STYLE[kind]}]{kind}[/]",
                terminal_line(change.label),
                _status(change.before),
                _status(change.after),
                terminal_line(_deltas(change)),
                terminal_line(change.question, limit=60),
            )
    return table_


def print_comparison(comparison: RunComparison, console: Any) -> None:
    """Print the headline, and the table when any case changed."""
    if any(c.kind != "unchanged" or c.part_changes for c in comparison.changes):
        console.print(comparison_table(comparison))
    console.print(f"comparison: {terminal_text(_headline(comparison))}", markup=False, highlight=False)
    if (line := parts_line(comparison)) is not None:
        console.print(terminal_text(line), markup=False, highlight=False)
    if comparison.findings is not None:
        console.print(terminal_text(comparison.findings.line()), markup=False, highlight=False)


def _md(text: str | None, limit: int = 100) -> str:
    return md_inline(text, limit=limit)  # the one Markdown sanitiser: names and questions are not ours


def comparison_markdown(comparison: RunComparison) -> str:
    """Markdown: the headline and a table of changed cases (unchanged ones are only counted)."""
    lines = [f"### {_md(comparison.candidate.test_set_name)}: comparison with the baseline", "", _headline(comparison)]
    if (line := parts_line(comparison)) is not None:
        lines += ["", line]
    if comparison.findings is not None:
        lines += ["", comparison.findings.line().replace("|", "\\|")]
    changed = [c for kind in KINDS for c in comparison.of_kind(kind) if kind != "unchanged" or c.part_changes]
    if changed:
        lines += [
            "",
            "| change | case | before | after | score delta | question |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        lines += [
            f"| {c.kind} | {_md(c.label)} | {_status(c.before)} | {_status(c.after)} | {_md(_deltas(c))} | "
            f"{_md(c.question)} |"
            for c in changed
        ]
    return "\n".join(lines) + "\n"


def comparison_html(
    comparison: RunComparison, *, baseline_label: str = "baseline", candidate_label: str = "candidate"
) -> str:
    """A self-contained HTML page of the comparison."""
    counts = comparison.counts()
    cards = (
        '<div class="cards">'
        + card("score delta (points)", "n/a" if comparison.score_delta is None else f"{comparison.score_delta:+g}")
        + "".join(card(kind, counts[kind]) for kind in KINDS)
        + "</div>"
    )
    rows = [
        [
            esc(c.kind),
            esc(c.label),
            badge(_status(c.before)) if c.before else "-",
            badge(_status(c.after)) if c.after else "-",
            esc(_deltas(c)),
            esc(c.question or ""),
            esc(c.after_reason or ""),
        ]
        for kind in KINDS
        for c in comparison.of_kind(kind)
    ]
    subtitle = (
        f"{esc(baseline_label)} ({esc(score_text(comparison.baseline))}) → "
        f"{esc(candidate_label)} ({esc(score_text(comparison.candidate))})"
    )
    line = parts_line(comparison)
    body = (
        cards
        + (f"<p>{esc(line)}</p>" if line else "")
        + (f'<p id="findings">{esc(comparison.findings.line())}</p>' if comparison.findings is not None else "")
        + "<h2>Cases</h2>"
        + table(["change", "case", "before", "after", "score delta", "question", "reason (candidate)"], rows)
    )
    return page(f"{comparison.candidate.test_set_name}: run comparison", subtitle, body)


__all__ = ["comparison_html", "comparison_markdown", "comparison_table", "parts_line", "print_comparison"]
