"""The dashboard page of ``copilot-eval serve``: one series' runs over time and its case-by-run grid.

Everything is in the page (style, script, an inline SVG chart): it works offline and fetches
nothing, like the reports. The chart draws each run's pass rate with its 95 % interval and shades
the runtime-limitation episodes; the grid has a row per case (regressed and flaky first) and a
column per run, each cell coloured by status (error and unknown each their own colour), and a
click on a cell or a run opens that run's report at the case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from copilot_eval.history.trends import CaseTrend, RunPoint, SeriesTrends, cell_status, ranked, segment_words
from copilot_eval.reports.html_page import card, esc, page
from copilot_eval.reports.run_words import NOTHING_GRADED

_STYLE = """
<style>
main { max-width: none; }
.series a { margin-right: 12px; } .series a.current { font-weight: 700; color: #1f2328; }
.wide { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table.grid { width: auto; border-collapse: separate; border-spacing: 1px; margin: 0; }
table.grid th, table.grid td { border: 0; padding: 2px 6px; white-space: nowrap; font-size: 12px; }
table.grid td.cell { width: 14px; min-width: 14px; height: 16px; padding: 0; cursor: pointer; }
table.grid th.run { padding: 0 1px; text-align: center; font-weight: 400; }
table.grid th.run.lim { background: #fff8c5; }
td.s-pass { background: var(--pass); } td.s-fail { background: var(--fail); }
td.s-error { background: #d4a72c; } td.s-unknown { background: #afb8c1; }
td.s-other { background: #8250df; }
td.s-mixed { background: linear-gradient(135deg, var(--pass) 50%, var(--fail) 50%); } td.s-none { background: #fff; cursor: default; }
td.lim { opacity: .45; }
.legend span { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 4px 0 12px; }
.legend span.line { height: 0; width: 16px; background: none; border-top: 2px dashed; }
.legend span.line.dotted { border-top-style: dotted; }
svg .tick { font-size: 11px; fill: #57606a; }
.series details { display: inline; } .series details[open] ul { columns: 2; }
.cols { display: flex; flex-wrap: wrap; gap: 24px; } .cols > div { flex: 1 1 420px; }
svg .episode { fill: #fff8c5; } svg .band { fill: #dafbe1; } svg .rate { fill: none; stroke: #1a7f37; stroke-width: 2; }
svg .point { fill: #1a7f37; } svg .no-rate { fill: #afb8c1; } svg .axis { stroke: #d0d7de; }
svg .agent-changed { stroke: #8250df; stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .segment-start { stroke: #9a6700; stroke-width: 1.5; stroke-dasharray: 2 2; }
</style>
"""

_SCRIPT = """
<script>
(function () {
  // A cell's run is its column's header; its case is its row. Joined here, so cells stay small.
  function parts(cell) {
    var header = document.querySelector("#case-grid thead tr").cells[cell.cellIndex];
    return { header: header, row: cell.parentElement };
  }
  document.addEventListener("click", function (event) {
    var cell = event.target.closest("#case-grid td.cell");
    if (!cell || cell.classList.contains("s-none")) { return; }
    var found = parts(cell), href = found.header.getAttribute("data-href");
    if (!href) { return; }
    var anchor = found.row.getAttribute("data-anchor");
    if (anchor && /report\\.html$/.test(href)) { href += "#" + encodeURIComponent(anchor); }
    window.location.href = href;
  });
  document.addEventListener("mouseover", function (event) {
    var cell = event.target.closest("#case-grid td.cell");
    if (!cell || cell.dataset.named) { return; }
    var found = parts(cell), status = cell.title || (cell.classList.contains("s-none") ? "not in this run" : "pass");
    cell.title = found.row.cells[0].textContent + " in " + found.header.title + ": " + status;
    cell.dataset.named = "1";
  });
})();
</script>
"""

_LEGEND = [
    ("pass", "var(--pass)"),
    ("fail", "var(--fail)"),
    ("pass and fail across repeats", "linear-gradient(135deg, var(--pass) 50%, var(--fail) 50%)"),
    ("error (not graded)", "#d4a72c"),
    ("unknown", "#afb8c1"),
    ("other status", "#8250df"),
]
_WIDTH, _HEIGHT, _LEFT, _TOP, _PLOT_H = 920, 250, 44, 12, 190


def _x(index: int, count: int) -> float:
    span = _WIDTH - _LEFT - 16
    return _LEFT + (span / 2 if count <= 1 else span * index / (count - 1))


def _y(rate: float) -> float:
    return _TOP + _PLOT_H * (1 - rate / 100)


def _run_label(run: dict[str, Any]) -> str:
    moment = run["run_at"] or run["recorded_at"]
    when = f"{moment:%Y-%m-%d %H:%M}" if moment else "time unknown"
    commit = (run["git_commit"] or "")[:10]
    return f"run {run['id']}, {when}" + (f", {commit}" if commit else "")


def pass_rate_chart(series: SeriesTrends, link: Callable[[dict[str, Any]], str | None]) -> str:
    """An inline SVG of the pass rate per run with its interval, limitation episodes shaded, agent changes marked."""
    points, count = series.runs, len(series.runs)
    step = (_WIDTH - _LEFT - 16) / max(count - 1, 1)
    index_of = {point.run["id"]: index for index, point in enumerate(points)}
    parts = [
        f'<svg id="pass-rate-chart" xmlns="http://www.w3.org/2000/svg" role="img" width="{_WIDTH}" '
        f'height="{_HEIGHT}" viewBox="0 0 {_WIDTH} {_HEIGHT}" aria-label="pass rate per run">'
    ]
    for episode in series.episodes:
        start, end = _x(index_of[episode.first_run], count), _x(index_of[episode.last_run], count)
        parts.append(
            f'<rect class="episode" x="{start - step / 2:.1f}" y="{_TOP}" width="{end - start + step:.1f}" '
            f'height="{_PLOT_H}"><title>runtime limitation: runs {episode.first_run}-{episode.last_run} '
            f"({episode.runs} run{'' if episode.runs == 1 else 's'}, {esc(episode.standing or 'standing unknown')})</title></rect>"
        )
    for rate in (0, 50, 100):
        parts.append(f'<line class="axis" x1="{_LEFT}" x2="{_WIDTH - 8}" y1="{_y(rate):.1f}" y2="{_y(rate):.1f}"/>')
        parts.append(f'<text x="{_LEFT - 6}" y="{_y(rate) + 4:.1f}" text-anchor="end">{rate}%</text>')
    for index, point in enumerate(points):
        x = _x(index, count)
        if point.changed.get("agent"):  # the agent's fingerprint differs from the run before: mark where
            parts.append(
                f'<line class="agent-changed" x1="{x:.1f}" x2="{x:.1f}" y1="{_TOP}" y2="{_TOP + _PLOT_H}">'
                f"<title>the agent changed here ({esc(_run_label(point.run))}): a new segment</title></line>"
            )
        elif point.starts_segment:  # the test set or the graders changed: a new segment, never flakiness
            parts.append(
                f'<line class="segment-start" x1="{x:.1f}" x2="{x:.1f}" y1="{_TOP}" y2="{_TOP + _PLOT_H}">'
                f"<title>a new segment: {esc(segment_words(point.starts_segment))} changed here "
                f"({esc(_run_label(point.run))})</title></line>"
            )
    parts.extend(_rate_shapes(points))
    for index, point in enumerate(points):
        parts.append(_marker(point, _x(index, count), link(point.run)))
    parts.extend(_time_axis(points))
    parts.append("</svg>" + _chart_legend(points))
    return "".join(parts)


_TICKS = 6  # dates under the chart: enough to read when each run was, few enough not to overlap


def _when(run: dict[str, Any]) -> str:
    moment = run["run_at"] or run["recorded_at"]
    return f"{moment:%b %d %H:%M}" if moment else f"run {run['id']}"


def _time_axis(points: Sequence[RunPoint]) -> list[str]:
    """Dates under the chart (the first run, the last, and evenly between): when each run was, not only its order."""
    count = len(points)
    if not count:
        return []
    chosen = sorted({round(i * (count - 1) / (_TICKS - 1)) for i in range(_TICKS)}) if count > 1 else [0]
    ticks = []
    for index in chosen:
        x = _x(index, count)
        anchor = "start" if index == 0 and count > 1 else "end" if index == count - 1 and count > 1 else "middle"
        ticks.append(
            f'<text class="tick" x="{x:.1f}" y="{_HEIGHT - 8}" text-anchor="{anchor}">{esc(_when(points[index].run))}</text>'
        )
    return ticks


def _chart_legend(points: Sequence[RunPoint]) -> str:
    """What the chart's lines and shades mean (the segment lines carry their reason on hover too)."""
    items = [
        ('<span style="background:#1a7f37"></span>', "pass rate of the run"),
        ('<span style="background:#dafbe1"></span>', "its 95% interval"),
        ('<span style="background:#fff8c5"></span>', "runs under a runtime limitation"),
        ('<span class="line" style="border-color:#8250df"></span>', "the agent changed (a new segment)"),
        ('<span class="line dotted" style="border-color:#9a6700"></span>', "the test set or the graders changed"),
        ('<span style="background:#afb8c1"></span>', "nothing graded"),
    ]
    return '<p class="legend" id="chart-legend">' + "".join(f"{mark}{esc(text)}" for mark, text in items) + "</p>"


def _rate_shapes(points: Sequence[RunPoint]) -> list[str]:
    """The interval band and the line, broken where a run has no graded case (never drawn as 0)."""
    shapes: list[str] = []
    segment: list[tuple[float, RunPoint]] = []
    for index, point in enumerate([*points, None]):
        if point is not None and point.pass_rate is not None and point.interval is not None:
            segment.append((_x(index, len(points)), point))
            continue
        if segment:
            upper = " ".join(f"{x:.1f},{_y(p.interval[1]):.1f}" for x, p in segment if p.interval)
            lower = " ".join(f"{x:.1f},{_y(p.interval[0]):.1f}" for x, p in reversed(segment) if p.interval)
            shapes.append(f'<polygon class="band" points="{upper} {lower}"/>')
            line = " ".join(f"{x:.1f},{_y(p.pass_rate or 0):.1f}" for x, p in segment)
            shapes.append(f'<polyline class="rate" points="{line}"/>')
            segment = []
    return shapes


def _marker(point: RunPoint, x: float, href: str | None) -> str:
    run = point.run
    if point.pass_rate is None:
        title = f"{_run_label(run)}: {NOTHING_GRADED}"
        shape = f'<rect class="no-rate" x="{x - 4:.1f}" y="{_TOP + _PLOT_H + 6}" width="8" height="8"><title>{esc(title)}</title></rect>'
    else:
        low, high = point.interval or (point.pass_rate, point.pass_rate)
        title = f"{_run_label(run)}: {point.pass_rate:g}% [{low:g}-{high:g}], {run['passed']} passed, {run['failed']} failed"
        if point.limitation:
            title += ", runtime limitation"
        shape = f'<circle class="point" cx="{x:.1f}" cy="{_y(point.pass_rate):.1f}" r="4"><title>{esc(title)}</title></circle>'
    return f'<a href="{esc(href)}">{shape}</a>' if href else shape


def _case_label(trend: CaseTrend) -> str:
    case = trend.case
    if case["conversation_number"] is not None:
        turn = f" turn {case['turn']}" if (case["turn"] or 1) > 1 else ""
        return f"case {case['conversation_number']}{turn}"
    return str(case["case_key"])


def _cell(point: RunPoint, found: Any) -> str:
    """One grid cell; a cell that is not a plain pass carries its statuses and reason as a tooltip."""
    lim = " lim" if point.limitation else ""
    if found is None:
        return f'<td class="cell s-none{lim}"></td>'
    _, statuses, _, reason = found
    shown = cell_status(statuses)
    css = shown if shown in ("pass", "fail", "error", "unknown") else "other"
    if "pass" in statuses and "fail" in statuses:
        css = "mixed"  # repeats disagreed: the cell shows both
    if statuses == ["pass"]:
        return f'<td class="cell s-pass{lim}"></td>'  # the script names run and case on hover
    text = ", ".join(statuses) + (f": {reason[:200]}" if reason else "")
    return f'<td class="cell s-{css}{lim}" title="{esc(text)}"></td>'


def case_grid(series: SeriesTrends, link: Callable[[dict[str, Any]], str | None]) -> str:
    """The case-by-run table: ranked cases as rows, runs (oldest to newest) as columns.

    Cells stay small (a 1,000-case series has 50,000 of them): the run's link is on its column
    header, the case's report anchor on its row, and the script joins them on a click.
    """
    head = ["<th>case</th><th>question</th><th>pass rate</th><th>this segment</th><th>flakiness</th>"]
    for point in series.runs:
        href, run = link(point.run), point.run
        label = f'<a href="{esc(href)}">{run["id"]}</a>' if href else str(run["id"])
        lim = " lim" if point.limitation else ""
        target = f' data-href="{esc(href)}"' if href else ""
        head.append(f'<th class="run{lim}"{target} title="{esc(_run_label(run))}">{label}</th>')
    body = []
    for trend in ranked(series.cases):
        by_run = {cell[0]["id"]: cell for cell in trend.cells}
        anchor = next((cell[2] for cell in trend.cells if cell[2]), None)
        rate = "unknown" if trend.pass_rate is None else f"{trend.pass_rate:g}%"
        now = "unknown" if trend.segment_pass_rate is None else f"{trend.segment_pass_rate:g}%"
        flaky = "unknown" if trend.flakiness is None else f"{trend.flakiness:.2f}"
        question = (trend.case["question"] or "")[:60]
        cells = "".join(_cell(point, by_run.get(point.run["id"])) for point in series.runs)
        target = f' data-anchor="{esc(anchor)}"' if anchor else ""
        body.append(
            f'<tr data-case="{esc(trend.case["case_key"])}"{target}><th>{esc(_case_label(trend))}</th>'
            f"<td>{esc(question)}</td><td>{esc(rate)}</td><td>{esc(now)}</td><td>{esc(flaky)}</td>{cells}</tr>"
        )
    legend = "".join(f'<span style="background:{colour}"></span>{esc(name)}' for name, colour in _LEGEND)
    return (
        f'<p class="legend">{legend}<span style="background:#fff8c5"></span>run under a runtime limitation</p>'
        f'<div class="wide"><table class="grid" id="case-grid"><thead><tr>{"".join(head)}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _watch_lists(series: SeriesTrends) -> str:
    regressed = sorted(
        (t for t in series.cases if t.regression is not None and t.regression.last_pass is not None),
        key=lambda t: -t.regression.position if t.regression else 0,
    )[:10]
    flaky = sorted((t for t in series.cases if (t.flakiness or 0) > 0), key=lambda t: -(t.flakiness or 0))[:10]
    rows_r = "".join(
        f"<li>{esc(_case_label(t))}: failing since {esc(_run_label(t.regression.run))}; "
        f"last passed in run {t.regression.last_pass['id']}</li>"
        for t in regressed
        if t.regression and t.regression.last_pass
    )
    rows_f = "".join(
        f"<li>{esc(_case_label(t))}: flakiness {t.flakiness:.2f} ({t.flips} flip{'' if t.flips == 1 else 's'}), "
        f"pass rate {t.pass_rate:g}%</li>"
        for t in flaky
        if t.flakiness is not None and t.pass_rate is not None
    )
    return (
        f'<div class="cols"><div><h2>Most recently regressed</h2><ul id="regressed">{rows_r or "<li>none</li>"}</ul></div>'
        f'<div><h2>Flakiest</h2><ul id="flakiest">{rows_f or "<li>none</li>"}</ul></div></div>'
    )


def _series_nav(names: Sequence[tuple[str, str | None]], current: int) -> str:
    """The series shown, and the others folded away in one line (a history of many series filled four)."""

    def label(name: str, agent: str | None) -> str:
        return f"{esc(name)} · {esc(agent or 'unnamed agent')}"

    if not names:
        return ""
    shown = label(*names[current]) if 0 <= current < len(names) else ""
    others = [
        f'<li><a href="/?series={index}">{label(name, agent)}</a></li>'
        for index, (name, agent) in enumerate(names)
        if index != current
    ]
    if not others:
        return f'<b class="current">{shown}</b>'
    return (
        f'<b class="current">{shown}</b> <details><summary>{len(others)} other series</summary>'
        f"<ul>{''.join(others)}</ul></details>"
    )


def dashboard_html(
    series: SeriesTrends | None,
    *,
    names: Sequence[tuple[str, str | None]],
    current: int,
    database: str,
    link: Callable[[dict[str, Any]], str | None],
    review: Callable[[dict[str, Any]], str | None] | None = None,
) -> str:
    """The whole page for series number ``current`` of ``names`` (None when the history is empty).

    ``review`` links a run to its review queue (people's verdicts beside the judges').
    """
    nav = _series_nav(names, current)
    if series is None:
        body = "<p>No runs recorded yet: `copilot-eval run` records every run; `copilot-eval history ingest` adds old ones.</p>"
        return page("copilot-eval history", esc(database), _STYLE + body)
    latest = next((p for p in reversed(series.runs) if p.pass_rate is not None), None)
    cards = "".join(
        [
            card("runs shown", len(series.runs)),
            card("cases", len(series.cases)),
            card("latest pass rate", f"{latest.pass_rate:g}%" if latest and latest.pass_rate is not None else None),
            card("limitation episodes", len(series.episodes)),
        ]
    )
    reviews = [(point.run, href) for point in reversed(series.runs[-10:]) if review and (href := review(point.run))]
    review_line = (
        '<p id="review">Review a run (people beside the judges): '
        + " · ".join(f'<a href="{esc(href)}">{esc(_run_label(run))}</a>' for run, href in reviews)
        + "</p>"
        if reviews
        else ""
    )
    body = (
        f'{_STYLE}<p class="series">{nav}</p><div class="cards">{cards}</div>{review_line}'
        f"<h2>Pass rate per run (95% interval; shaded: runtime limitation)</h2>{pass_rate_chart(series, link)}"
        f"{_watch_lists(series)}<h2>Cases by run</h2>{case_grid(series, link)}{_SCRIPT}"
    )
    title = f"{series.test_set_name} · {series.agent_name or 'unnamed agent'}: history"
    return page(title, esc(database), body)


__all__ = ["case_grid", "dashboard_html", "pass_rate_chart"]
