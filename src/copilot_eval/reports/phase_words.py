"""Time by phase in words and tables: a case's session and the medians over a run, for every view."""

from __future__ import annotations

from copilot_eval.evalsets.phase_record import PHASE_NAMES, PhaseRecord
from copilot_eval.reports.html_page import esc, table

PHASE_LABELS = {
    "session_start": "session start",
    "context": "context",
    "model": "model",
    "tools": "tools",
    "host_callbacks": "host callbacks",
    "closing": "closing",
    "other": "other",
}


def _ms(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.0f} ms"


def phase_line(record: PhaseRecord | None) -> str | None:
    """``session start 120 ms · context 30 ms · model 40 ms ...``; ``None`` without a record."""
    if record is None:
        return None
    return " · ".join(f"{PHASE_LABELS[name]} {_ms(value)}" for name, value in record.by_phase().items())


def phase_table_html(record: PhaseRecord | None, *, title: str) -> str:
    """One row of phases (with the total) under a heading; empty without a record."""
    if record is None:
        return ""
    header = ["total", *(PHASE_LABELS[name] for name in PHASE_NAMES)]
    row = [esc(_ms(record.total_ms)), *(esc(_ms(value)) for value in record.by_phase().values())]
    return f"<h3>{esc(title)}</h3>" + table(header, [row], cls="phases")


def medians_html(record: PhaseRecord | None) -> str:
    """The run's medians per phase, saying how many sessions they are over; empty without any."""
    if record is None:
        return ""
    over = f"median over {record.sessions} session{'s' if record.sessions != 1 else ''}"
    return (
        phase_table_html(record, title=f"Time by phase ({over}, from the runtime's trace)")
        .replace("<h3>", '<h2 id="phases">', 1)
        .replace("</h3>", "</h2>", 1)
    )


__all__ = ["PHASE_LABELS", "medians_html", "phase_line", "phase_table_html"]
