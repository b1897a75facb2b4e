"""The HTML report of a pytest session: every test's outcome, and the evidence of each agent run it made."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from copilot_eval.evidence.usage import sum_known
from copilot_eval.reports.html_evidence import evidence_html, evidence_tokens
from copilot_eval.reports.html_page import badge, card, drill_down, esc, page, pre, table
from copilot_eval.reports.svg_charts import bar_chart

if TYPE_CHECKING:
    from copilot_eval.reports.pytest_report import SessionReport, TestRecord

_BADGE = {"passed": "pass", "failed": "fail", "error": "error", "skipped": "skipped"}


def session_anchor(nodeid: str) -> str:
    """The id of a test's drill-down in the pytest session report (the history dashboard links to it)."""
    return "test-" + re.sub(r"[^A-Za-z0-9_-]+", "-", nodeid).strip("-")


def _cases(record: TestRecord) -> str:
    if not record.cases:
        return ""
    rows = []
    for case, result in record.cases:
        verdicts = "<br>".join(
            f"{esc(g.method)}: {badge(g.status.value)} {esc(g.explanation or '')}" for g in result.grades
        ) or esc(result.failure_reason or "")
        answer = result.actual_response if result.actual_response is not None else "(no answer)"
        rows.append(
            [
                esc(case.conversation_number),
                badge(result.effective_status.value),
                esc(case.question),
                esc(case.response),
                esc(answer),
                verdicts,
            ]
        )
    return "<h3>Test-set cases</h3>" + table(
        ["case", "status", "question", "reference", "actual answer", "graders"], rows
    )


def _runs(record: TestRecord, report: SessionReport) -> str:
    parts = []
    for index, (data, saved) in enumerate(record.evidence, start=1):
        prompt = data.get("prompt")
        answer = (data.get("derived") or {}).get("final_response")
        parts.append(
            f"<h3>Agent run {index}</h3><p><b>prompt</b></p>{pre(prompt)}<p><b>final response</b></p>{pre(answer)}"
            + evidence_html(data, report.link(saved))
        )
    return "".join(parts)


def agent_runs(record: TestRecord) -> int:
    """The agent's sessions a test made: its own runs, and the conversation a test-set item played (one per
    evidence file its cases name; a case never played is none)."""
    played = {
        result.evidence_path or f"unsaved {case.conversation_number}"
        for case, result in record.cases
        if result.effective_status.value != "not_run"
    }
    return len(record.evidence) + len(played)


def _tokens(record: TestRecord) -> int | None:
    if not record.evidence:
        return None
    return sum_known(evidence_tokens(data) for data, _ in record.evidence)  # one unknown run makes it unknown


def session_report_html(report: SessionReport) -> str:
    """The complete, self-contained HTML page of the session."""
    records = list(report.tests.values())
    counts = {
        outcome: sum(r.outcome == outcome for r in records) for outcome in ("passed", "failed", "error", "skipped")
    }
    runs = sum(agent_runs(r) for r in records)
    cards = (
        '<div class="cards">'
        + "".join(card(name, value) for name, value in counts.items())
        + card("agent runs", runs)
        + "</div>"
    )
    with_runs = [r for r in records if r.evidence or r.cases]
    charts = bar_chart(
        "Duration per test",
        [(r.nodeid.split("::")[-1][:18], r.duration_s, _BADGE[r.outcome]) for r in with_runs],
        unit="s",
    ) + bar_chart(
        "Tokens per test (input + output)",
        [(r.nodeid.split("::")[-1][:18], _tokens(r), _BADGE[r.outcome]) for r in with_runs if r.evidence],
        unit="tokens",
    )
    sections = []
    for record in records:
        summary = f"{badge(_BADGE[record.outcome])} <b>{esc(record.nodeid)}</b> <span class=muted>{record.duration_s:.2f} s</span>"
        heading = {"skipped": "Skipped", "error": "Error (setup or teardown)"}.get(record.outcome, "Failure")
        body = (
            (f"<h3>{heading}</h3>{pre(record.failure)}" if record.failure else "")
            + _cases(record)
            + _runs(record, report)
        )
        sections.append(
            drill_down(
                summary, body or "<p class=muted>No agent run recorded.</p>", anchor=session_anchor(record.nodeid)
            )
        )
    body = (
        cards
        + (f'<h2>Charts</h2><div class="charts">{charts}</div>' if charts else "")
        + '<h2>Tests</h2><p><button id="open-all" type="button">open all</button>'
        '<button id="close-all" type="button">close all</button></p>' + "".join(sections)
    )
    return page("pytest session: copilot-eval report", f"{len(records)} tests · {runs} agent runs", body)


__all__ = ["agent_runs", "session_anchor", "session_report_html"]
