"""The HTML report of one evaluation run: summary, limitation banner, repeats, execution, charts, a drill-down per case."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.repeat_stats import repeat_stats
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult, EvalRun
from copilot_eval.reports.findings import ScanFiles, read_findings
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.html_evidence import evidence_html, evidence_tokens
from copilot_eval.reports.html_execution import execution_html
from copilot_eval.reports.html_findings import case_findings_badge, case_findings_html, findings_summary_html
from copilot_eval.reports.html_page import badge, card, drill_down, esc, page, pre, table
from copilot_eval.reports.html_page import link as html_link
from copilot_eval.reports.html_platform import platform_html
from copilot_eval.reports.html_triggers import triggers_html
from copilot_eval.reports.phase_words import medians_html, phase_table_html
from copilot_eval.reports.repeat_words import (
    case_flag,
    case_label,
    case_records,
    judge_calls_text,
    judge_cost_line,
    rate_text,
    repeat_lines,
    shown_status,
    shows_repeats,
    tries_of,
)
from copilot_eval.reports.run_folder import RunFolder, read_run_folder
from copilot_eval.reports.run_words import NOTHING_GRADED, confirmed_by_text, limitation_heading, score_text
from copilot_eval.reports.security_figures import SecurityHeadline, read_security_headline
from copilot_eval.reports.svg_charts import bar_chart
from copilot_eval.reports.usage_words import case_usage_text, usage_lines
from copilot_eval.reports.workspace_words import findings_lines, workspace_html
from copilot_eval.safe_paths import OutsideFolder, inside_folder

REPORT_HTML = LAYOUT.report_html


def _label(result: EvalCaseResult, repeats: bool) -> str:
    turn = f" turn {result.turn}" if (result.turn or 1) > 1 else ""
    return f"case {result.conversation_number}{turn}" + (f" r{result.repeat_index or 0}" if repeats else "")


def case_anchor(conversation_number: int, turn: int | None, repeat_index: int | None) -> str:
    """The id of a case's drill-down in report.html (the history dashboard links to it)."""
    shown_turn = f"-t{turn}" if (turn or 1) > 1 else ""
    return f"case-{conversation_number}{shown_turn}-r{repeat_index or 0}"


def _anchor(result: EvalCaseResult) -> str:
    return case_anchor(result.conversation_number, result.turn, result.repeat_index)


def _limitation_banner(run: EvalRun) -> str:
    heading = limitation_heading(run)
    if heading is None:
        return ""
    body, _, evidence = (run.runtime_limitation or "").partition(" Evidence: ")
    items = "".join(f"<li>{esc(item)}</li>" for item in evidence.split(" | ") if item)
    confirmed = confirmed_by_text(run)
    return (
        f'<div class="banner" role="alert" id="limitation"><b>{esc(heading)}:</b> {esc(body)}'
        + (f"<div>Evidence:</div><ul>{items}</ul>" if items else "")
        + (f"<div>{esc(confirmed)}</div>" if confirmed else "")
        + "</div>"
    )


def _security_lead(headline: SecurityHeadline) -> str:
    caveat = headline.caveat()
    return (
        card("utility without attack", headline.utility_without_attack.text())
        + card("utility under attack", headline.utility_under_attack.text())
        + card("attack success (delivered)", headline.attack_success.text())
        + (
            f'</div><div class="banner" role="alert" id="utility-caveat">{esc(caveat)}</div><div class="cards">'
            if caveat
            else ""
        )
    )


def _summary_cards(folder: RunFolder) -> str:
    run = folder.run
    score = card(f"score over {run.graded} graded", score_text(run)) if run.graded else card("score", NOTHING_GRADED)
    headline = read_security_headline(folder.folder)
    if headline is not None:  # an injection suite: its pooled score answers nothing; lead with what does
        score = _security_lead(headline)
    return (
        '<div class="cards">'
        + score
        + card("passed", run.passed)
        + card("failed", run.failed)
        + card("errors (not graded)", run.errored)
        + card("unknown", run.not_graded)
        + (card("not run", run.not_run) if run.not_run else "")
        + (card("draft cases (not truths)", run.draft_cases) if run.draft_cases is not None else "")
        + card("confidence", run.confidence.value)
        + "</div>"
    )


def _repeats(folder: RunFolder) -> str:
    run = folder.run
    if not shows_repeats(run):
        return ""
    records = case_records(run) or []
    stats = {(s.conversation_number, s.turn): s for s in repeat_stats(run)}
    k = tries_of(run)
    rows = []
    for record in records:
        s = stats.get((record.conversation_number, record.turn))
        rows.append(
            [
                esc(case_label(record)),
                esc(record.attempts),
                esc(rate_text(record)),
                esc({True: "yes", False: "no", None: "unknown"}[s.pass_at_k if s else None]),
                esc({True: "yes", False: "no", None: "unknown"}[s.pass_all_k if s else None]),
                esc(case_flag(record)),
            ]
        )
    lines = "".join(f"<p>{esc(line)}</p>" for line in repeat_lines(run))
    return f'<h2 id="repeats">Repeats</h2>{lines}' + table(
        ["case", "attempts", "pass rate over graded tries", f"pass@{k}", f"pass^{k}", "verdict"], rows
    )


def _grades(result: EvalCaseResult, folder: RunFolder) -> str:
    if not result.grades:
        return ""
    # The platform's metrics carry an error reason and figures of their own; show them when any grade has them.
    platform = any(g.error_reason or g.data for g in result.grades)
    rows = []
    for grade in result.grades:
        link = folder.link(grade.evidence_path)
        row = [
            esc(grade.method),
            badge(grade.status.value),
            esc(grade.score),
            esc(grade.passing_score),
            esc(grade.explanation or ""),
            esc(judge_calls_text(grade.judge) if grade.judge else ""),
        ]
        if platform:
            data = ", ".join(f"{key}: {value}" for key, value in (grade.data or {}).items())
            row += [esc(grade.error_reason or ""), esc(data)]
        rows.append([*row, html_link(link, "judge evidence", relative=True) if link else ""])
    head = ["grader", "verdict", "score", "passing score", "reasoning", "judge calls"]
    head += ["error reason", "data"] if platform else []
    return "<h3>Graders</h3>" + table([*head, ""], rows)


def _case(
    result: EvalCaseResult,
    folder: RunFolder,
    cases: dict[tuple[int, int], Any],
    evidence: dict[str, Any],
    repeats: bool,
    scans: ScanFiles,
) -> str:
    case = cases.get((result.conversation_number, result.turn or 1))
    status = result.effective_status
    question = case.question if case is not None else None
    reason = (
        f' <span class="muted">{esc(result.failure_reason)}</span>'
        if result.failure_reason and status is not CaseStatus.PASS
        else ""
    )
    summary = (
        f"{badge(shown_status(result))} <b>{esc(_label(result, repeats))}</b> "
        f"{esc(question or result.case_id or '')}{reason}"
    )
    findings = scans.for_case(result.key, result.repeat_index) if scans.findings else []
    summary += case_findings_badge(findings)
    parts = [
        f'<p class="muted">platform test case id: {esc(result.case_id)}</p>' if result.case_id else "",
        f"<h3>Question</h3>{pre(question) if case else '<p class=muted>test set not kept with this run</p>'}",
        f"<h3>Reference</h3>{pre(case.response) if case else '<p class=muted>unknown</p>'}",
        f"<h3>Actual answer</h3>{pre(result.actual_response) if result.actual_response is not None else '<p>(no answer)</p>'}",
    ]
    if result.failure_reason:
        parts.append(f"<h3>Reason</h3>{pre(result.failure_reason)}")
    parts.append(case_findings_html(findings))
    parts.append(_grades(result, folder))
    parts.append(workspace_html(result, folder))
    parts.append(
        f"<p>duration: {esc(None if result.duration_ms is None else f'{result.duration_ms / 1000:.2f} s')}</p>"
    )
    if result.effective_status is not CaseStatus.NOT_RUN:
        parts.append(f'<p class="case-usage">spent (this session): {esc(case_usage_text(result))}</p>')
    parts.append(phase_table_html(result.phases, title="Time by phase (this session)"))
    if result.evidence_path:
        data, link = evidence.get(result.evidence_path), folder.link(result.evidence_path)
        parts.append(evidence_html(data, link, refused=folder.evidence_refusal(result.evidence_path)))
    else:
        parts.append('<p class="muted">No evidence file was recorded for this case.</p>')
    return drill_down(summary, "".join(parts), anchor=_anchor(result))


def _charts(results: list[EvalCaseResult], evidence: dict[str, Any], repeats: bool) -> str:
    # One bar per session: the cases of a conversation share one session, its time and its tokens.
    sessions: dict[str, list[EvalCaseResult]] = {}
    for result in results:
        sessions.setdefault(result.evidence_path or _anchor(result), []).append(result)
    bars_time: list[tuple[str, float | None, str]] = []
    bars_tokens: list[tuple[str, int | None, str]] = []
    for key, members in sessions.items():
        first = members[0]
        label = _label(first, repeats) if len(members) == 1 else Path(key).stem
        worst = next(
            (
                s.value
                for s in (CaseStatus.FAIL, CaseStatus.ERROR, CaseStatus.UNKNOWN)
                if any(m.effective_status is s for m in members)
            ),
            CaseStatus.PASS.value,
        )
        bars_time.append((label, None if first.duration_ms is None else first.duration_ms / 1000, worst))
        bars_tokens.append((label, evidence_tokens(evidence.get(first.evidence_path or "")), worst))
    if all(value is None for _, value, _ in bars_time + bars_tokens):
        return ""  # nothing measured per session (a platform's run): no charts of unknowns
    return bar_chart("Duration per session", bars_time, unit="s") + bar_chart(
        "Tokens per session (input + output)", bars_tokens, unit="tokens"
    )


def _played_on(data: Any) -> Any:
    return data.get("played_on") if isinstance(data, dict) else None


def _snapshot_link(folder: RunFolder) -> str | None:
    record = folder.run.platform_run
    if record is None or record.snapshot is None:
        return None
    try:  # the path comes from run.json: a file of this folder, or no link
        found = inside_folder(folder.folder, record.snapshot.path)
    except OutsideFolder:
        return None
    return found.relative_to(folder.folder.resolve()).as_posix() if found.is_file() else None


def _people(notices: Sequence[str]) -> str:
    """What the history knows of people beside the judges: graders below the kappa floor, verdicts people changed."""
    if not notices:
        return ""
    items = "".join(f"<li>{esc(line)}</li>" for line in notices)
    return f'<div class="banner" id="people"><b>People and the judges:</b><ul>{items}</ul></div>'


def run_report_html(folder: RunFolder, *, notices: Sequence[str] = ()) -> str:
    """The complete, self-contained HTML page of the run in ``folder``.

    ``notices`` are what the history adds (``history.run_notices``): graders that agree with people
    too little, and the run re-scored with people's verdicts.
    """
    run = folder.run
    results = list(run.results or [])
    repeats = any(r.repeat_index for r in results)
    cases = case_turns(folder.test_set) if folder.test_set else {}
    evidence = {path: folder.load_evidence(path) for path in {r.evidence_path for r in results if r.evidence_path}}
    charts = _charts(results, evidence, repeats)
    scans = read_findings(folder.folder)
    started = (
        None if run.run_at is None else f"{run.run_at:%Y-%m-%d %H:%M:%S} UTC"
    )  # seconds are enough to tell runs apart
    subtitle = (
        f"agent {esc(run.agent_name)} · run at {esc(started)} · duration "
        f"{esc(None if run.duration_ms is None else f'{run.duration_ms / 1000:.1f} s')} · {len(results)} results"
    )
    # The cases come first, those that did not pass (with their reasons) ahead of the rest: they are
    # what a reader opens the report for; spend, execution, phases and charts follow them.
    ordered = sorted(results, key=lambda r: r.effective_status is CaseStatus.PASS)
    body = (
        _summary_cards(folder)
        + _limitation_banner(run)
        + _people(notices)
        + findings_summary_html(scans)
        + (f'<p class="muted">{esc(run.note)}</p>' if run.note else "")
        + '<h2>Cases</h2><p><button id="open-all" type="button">open all</button>'
        '<button id="close-all" type="button">close all</button></p>'
        + "".join(_case(r, folder, cases, evidence, repeats, scans) for r in ordered)
        + ("" if results else "<p>This run holds no per-case results.</p>")
        + (
            '<div id="workspace-findings"><h2>Honesty findings</h2>'
            + "".join(f"<p>{esc(line)}</p>" for line in findings)
            + "</div>"
            if (findings := findings_lines(run))
            else ""
        )
        + triggers_html(folder.folder)
        + (f'<p id="judge-cost">{esc(cost)}</p>' if (cost := judge_cost_line(run)) else "")
        + (
            '<div id="usage"><h2>What the run spent</h2>' + "".join(f"<p>{esc(line)}</p>" for line in spent) + "</div>"
            if (spent := usage_lines(run))
            else ""
        )
        + _repeats(folder)
        + platform_html(run.platform_run, snapshot_link=_snapshot_link(folder))
        + execution_html(run, [(_label(r, repeats), _played_on(evidence.get(r.evidence_path or ""))) for r in results])
        + medians_html(run.phase_medians)
        + (f'<h2>Charts</h2><div class="charts">{charts}</div>' if charts else "")
    )
    return page(f"{run.test_set_name}: evaluation run", subtitle, body)


def write_run_report(
    run_dir: Path | str | RunFolder, path: Path | str | None = None, *, notices: Sequence[str] = ()
) -> Path:
    """Write the HTML report of the run folder ``run_dir`` (default ``RUN_DIR/report.html``); return its path.

    A ``RunFolder`` already read is used as it is, not read again.
    """
    folder = read_run_folder(run_dir)
    target = Path(path) if path else folder.folder / REPORT_HTML
    return write_text_atomically(target, run_report_html(folder, notices=notices))


__all__ = ["REPORT_HTML", "case_anchor", "run_report_html", "write_run_report"]
