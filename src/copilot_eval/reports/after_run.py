"""What `copilot-eval run` writes after run.json: the HTML report, JUnit XML and a baseline comparison."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets.errors import EvalSetError
from copilot_eval.reports.compare import RunComparison
from copilot_eval.reports.compare_views import comparison_html, comparison_markdown, print_comparison
from copilot_eval.reports.html_run import REPORT_HTML, run_report_html
from copilot_eval.reports.junit import write_junit
from copilot_eval.reports.run_comparison import compare_folders
from copilot_eval.reports.run_folder import read_run_folder


def baseline_problem(baseline: Path | None) -> str | None:
    """Why ``--baseline`` cannot be used (checked before the run spends anything), or None when it can."""
    if baseline is None:
        return None

    try:
        read_run_folder(baseline)
    except EvalSetError as exc:
        return f"--baseline {exc}"
    return None


@dataclass
class RunReports:
    """The files written after a run, as lines for the summary, and the comparison when asked for."""

    lines: list[str] = field(default_factory=list)
    comparison: RunComparison | None = None

    def print_comparison(self, console: Any) -> None:
        """Print the baseline comparison, if there is one."""
        if self.comparison is not None:
            print_comparison(self.comparison, console)


def write_run_reports(out: Path, *, junit: Path | None = None, baseline: Path | None = None) -> RunReports:
    """Write ``out/report.html`` and, when asked, JUnit XML and ``out/comparison.html`` against ``baseline``."""
    folder = read_run_folder(out)
    reports = RunReports()
    write_text_atomically(folder.folder / REPORT_HTML, run_report_html(folder))
    reports.lines.append(f"HTML report: {folder.folder / REPORT_HTML}")
    if junit is not None:
        write_junit(folder.run, junit, folder.test_set)
        reports.lines.append(f"JUnit XML: {junit}")
    if baseline is not None:
        reports.comparison = compare_folders(baseline, out)
        write_text_atomically(
            folder.folder / "comparison.html",
            comparison_html(reports.comparison, baseline_label=str(baseline), candidate_label=str(out)),
        )
        write_text_atomically(folder.folder / "comparison.md", comparison_markdown(reports.comparison))
        reports.lines.append(f"comparison with {baseline}: {folder.folder / 'comparison.html'}, comparison.md")
    return reports


__all__ = ["RunReports", "baseline_problem", "write_run_reports"]
