"""Inline SVG bar charts (durations, tokens) for the HTML reports: no library, no script, no network."""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.reports.html_page import esc

_BAR_HEIGHT = 16
_GAP = 4
_LABEL_WIDTH = 120
_BAR_WIDTH = 300
_VALUE_WIDTH = 90
_COLOURS = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#9a6700"}


def _fmt(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value:.2f} s"
    return f"{value:,.0f}{(' ' + unit) if unit else ''}"


def bar_chart(title: str, bars: Sequence[tuple[str, float | None, str | None]], *, unit: str = "") -> str:
    """A horizontal bar chart: one bar per (label, value, status); an unknown value is written, not drawn as 0."""
    if not bars:
        return ""
    known = [value for _, value, _ in bars if value is not None]
    top = max(known) if known else 0.0
    height = len(bars) * (_BAR_HEIGHT + _GAP) + 24
    width = _LABEL_WIDTH + _BAR_WIDTH + _VALUE_WIDTH
    parts = [
        f"<figure><figcaption><b>{esc(title)}</b></figcaption>"
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{esc(title)}" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
    ]
    for index, (label, value, status) in enumerate(bars):
        y = 4 + index * (_BAR_HEIGHT + _GAP)
        middle = y + _BAR_HEIGHT - 4
        parts.append(f'<text x="{_LABEL_WIDTH - 6}" y="{middle}" text-anchor="end">{esc(label)}</text>')
        if value is None:
            parts.append(f'<text x="{_LABEL_WIDTH + 4}" y="{middle}" fill="#6e7781">unknown</text>')
            continue
        length = 0.0 if top <= 0 else max(1.0, _BAR_WIDTH * value / top)
        colour = _COLOURS.get(status or "", "#6e7781")
        parts.append(
            f'<rect x="{_LABEL_WIDTH}" y="{y}" width="{length:.1f}" height="{_BAR_HEIGHT}" fill="{colour}">'
            f"<title>{esc(label)}: {esc(_fmt(value, unit))}</title></rect>"
        )
        parts.append(f'<text x="{_LABEL_WIDTH + length + 4:.1f}" y="{middle}">{esc(_fmt(value, unit))}</text>')
    parts.append("</svg></figure>")
    return "".join(parts)


__all__ = ["bar_chart"]
