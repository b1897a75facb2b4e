"""The trigger evaluation's part of report.html: per-skill figures, the confusion matrix, each prompt's rate.

A trigger run folder holds ``triggers.json`` beside run.json (computed by ``triggers.record``, or by
``triggers.merge`` for merged shards, and written by the finisher with the data, before the report);
the report shows it when it is there and nothing otherwise. Plays that do not count (errors, setup
problems, undelivered descriptions) are shown apart from every rate, as they are counted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.html_page import badge, esc, table

__all__ = ["TRIGGERS_JSON", "triggers_html"]

TRIGGERS_JSON = LAYOUT.triggers_json
MAX_TRIGGERS_BYTES = 20 * 1024 * 1024


def _share(value: Any) -> str:
    return esc(None if value is None else f"{value:.0%}")


def _interval(value: Any) -> str:
    if not isinstance(value, list) or len(value) != 2:
        return esc(None)
    return esc(f"{value[0]:.0%}-{value[1]:.0%}")


def _skills(figures: dict[str, Any]) -> str:
    rows = [
        [
            esc(s["name"]),
            _share(s["precision"]),
            _share(s["recall"]),
            _share(s["f1"]),
            esc(s["tp"]),
            esc(s["fp"]),
            esc(s["fn"]),
        ]
        for s in figures.get("skills", [])
    ]
    header = ["skill or agent", "precision", "recall", "F1", "TP", "FP", "FN"]
    return "<h2>Per skill (over prompts)</h2>" + table(header, rows, cls="triggers-skills")


def _confusion(figures: dict[str, Any]) -> str:
    confusion = figures.get("confusion") or {}
    columns = list(confusion.get("columns") or [])
    rows = [
        [f"<b>{esc(expected)}</b>"] + [esc(counts.get(column, 0)) for column in columns]
        for expected, counts in (confusion.get("rows") or {}).items()
    ]
    return '<h2>Confusion matrix (plays that count)</h2><p class="muted">rows: expected; columns: chosen</p>' + table(
        ["expected \\ chosen", *columns], rows, cls="triggers-confusion"
    )


def _prompts(figures: dict[str, Any]) -> str:
    rows = [
        [
            esc(p["number"]),
            esc(p["prompt"]),
            esc(p["expected"]),
            esc(", ".join(p.get("tags") or [])),
            esc(f"{p['hits']}/{p['counted']}"),
            _share(p["rate"]),
            _interval(p.get("interval")),
            badge(p["verdict"] if p["verdict"] != "no verdict" else "unknown"),
            esc(", ".join(f"{n} {k}" for k, n in sorted((p.get("apart") or {}).items())) or "-"),
        ]
        for p in figures.get("prompts", [])
    ]
    header = ["#", "prompt", "expected", "tags", "expected choice", "rate", "95% interval", "verdict", "apart"]
    return f"<h2>Per prompt (threshold {_share(figures.get('threshold'))})</h2>" + table(
        header, rows, cls="triggers-prompts"
    )


def _headline(document: dict[str, Any]) -> str:
    figures = document.get("figures") or {}
    near = figures.get("nearMiss") or {}
    size = figures.get("sampleSize") or {}
    apart = ", ".join(f"{n} {k}" for k, n in sorted((figures.get("apart") or {}).items())) or "none"
    problems = [f"{e['name']}: {'; '.join(e['problems'])}" for e in document.get("catalogue", []) if e.get("problems")]
    lines = [
        f"{esc(figures.get('correct'))} of {esc(figures.get('counted'))} counted plays made the expected choice "
        f"({_share(figures.get('accuracy'))}, 95% interval {_interval(figures.get('accuracyInterval'))}).",
        f"Near-miss false triggers: {esc(near.get('falseTriggers'))} of {esc(near.get('counted'))} "
        f"({_share(near.get('rate'))}).",
        f"Apart from every rate: {esc(apart)}.",
        f"To detect a difference of {_share(size.get('difference'))} from this accuracy, play about "
        f"{esc(size.get('playsPerSide'))} plays per side (two-sided 5%, power 80%).",
        f"{esc(document.get('runs'))} run(s) per prompt; "
        + ("each play stopped at the first choice." if document.get("stopAtChoice") else "each play ran to its end."),
    ]
    body = "".join(f"<p>{line}</p>" for line in lines)
    if problems:
        body += (
            "<h3>Setup problems in the catalogue</h3><ul>" + "".join(f"<li>{esc(p)}</li>" for p in problems) + "</ul>"
        )
    return body


def triggers_html(folder: Path) -> str:
    """The trigger section of the report of ``folder``, or an empty string when it holds no ``triggers.json``."""
    path = folder / TRIGGERS_JSON
    if not path.is_file() or path.stat().st_size > MAX_TRIGGERS_BYTES:
        return ""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        figures = document["figures"]
        return (
            '<div id="triggers"><h2>Trigger evaluation</h2>'
            + _headline(document)
            + _skills(figures)
            + _confusion(figures)
            + _prompts(figures)
            + "</div>"
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        return f'<p class="muted">{esc(TRIGGERS_JSON)} could not be read: {esc(error)}</p>'
