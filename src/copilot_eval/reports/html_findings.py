"""The transcript scanners' findings in the HTML report: a summary grouping the cases by finding, and each case's own.

Findings sit beside the verdicts (``scans/``, ``reports.findings``); this view never changes a
status, it says which failures share a cause ("6 of the 9 failures: platform_error").
"""

from __future__ import annotations

from collections import Counter, defaultdict

from copilot_eval.reports.findings import Finding, ScanFiles
from copilot_eval.reports.html_page import esc, table

_NOT_PASSED = ("fail", "error", "unknown")


def findings_summary_html(scans: ScanFiles) -> str:
    """Per scanner: its findings, and the cases it flagged by status (failures first); empty when never scanned."""
    if not scans.scanners:
        return ""
    cases: dict[str, dict[tuple[str, int | None], str | None]] = defaultdict(dict)
    for finding in scans.findings:
        cases[finding.scanner][(finding.case, finding.repeat)] = finding.status
    rows = []
    for name, count in scans.counts().items():
        by_status = Counter(status or "unknown" for status in cases[name].values())
        failing = sum(by_status[s] for s in _NOT_PASSED)
        shown = ", ".join(f"{status} {n}" for status, n in sorted(by_status.items()))
        rows.append([esc(name), esc(count), esc(len(cases[name])), esc(failing), esc(shown or "-")])
    note = (
        f'<p class="muted">{esc(scans.unreadable)} line(s) of scans/ could not be read and are left out.</p>'
        if scans.unreadable
        else ""
    )
    return (
        '<div id="findings"><h2>What the scores do not say: findings</h2>'
        '<p class="muted">Transcript scanners read what the agent wrote; their findings never change a verdict. '
        "Failures grouped by finding: a scanner that flags most failures names a cause they share.</p>"
        + table(["scanner", "findings", "cases", "of them not passed", "cases by status"], rows)
        + note
        + "</div>"
    )


def _row(finding: Finding) -> list[str]:
    opinion = " (a model's opinion)" if finding.opinion else ""
    return [
        esc(finding.scanner),
        esc(finding.severity),
        esc(finding.where),
        esc(finding.reason + opinion),
        f"<code>{esc(finding.quote)}</code>",
    ]


def case_findings_html(findings: list[Finding]) -> str:
    """One case's findings as a table; empty when it has none."""
    if not findings:
        return ""
    return '<h3 class="findings">Findings</h3>' + table(
        ["scanner", "severity", "where", "why", "quoted"], [_row(f) for f in findings]
    )


def case_findings_badge(findings: list[Finding]) -> str:
    """`` · 2 findings: loop, refusal`` after a case's summary line; empty when none."""
    if not findings:
        return ""
    names = ", ".join(sorted({f.scanner for f in findings}))
    return f' <span class="muted">· {len(findings)} finding(s): {esc(names)}</span>'


__all__ = ["case_findings_badge", "case_findings_html", "findings_summary_html"]
