"""Reports: the output layer, every file and view a person or a CI job reads.

Terminal tables, ``run.json`` and the results CSV, evidence file names, the pytest failure text,
the HTML reports (a run, a comparison, a pytest session), JUnit XML, Markdown summaries. Every
file goes through the leaf ``copilot_eval.atomic_write``. No lower layer imports this package.
"""

from __future__ import annotations

from copilot_eval.reports.compare import RunComparison, compare_runs
from copilot_eval.reports.compare_views import comparison_html, comparison_markdown
from copilot_eval.reports.evidence_names import evidence_file_name, unit_evidence_name
from copilot_eval.reports.evidence_table import evidence_table
from copilot_eval.reports.failure_text import describe_unit
from copilot_eval.reports.html_run import run_report_html, write_run_report
from copilot_eval.reports.inspect_view import render_result
from copilot_eval.reports.junit import junit_xml, write_junit
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.results_csv import results_csv_text, write_results_csv
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.reports.run_folder import RESULTS_CSV, RUN_JSON, RUN_SCHEMA_VERSION, RunFolder, read_run_folder
from copilot_eval.reports.terminal import print_summary, summary_table, totals_line

__all__ = [
    "RESULTS_CSV",
    "RUN_JSON",
    "RUN_SCHEMA_VERSION",
    "RunComparison",
    "RunFolder",
    "compare_runs",
    "comparison_html",
    "comparison_markdown",
    "describe_unit",
    "evidence_file_name",
    "evidence_table",
    "junit_xml",
    "print_summary",
    "read_run_folder",
    "render_result",
    "results_csv_text",
    "run_report_html",
    "run_summary_markdown",
    "summary_table",
    "totals_line",
    "unit_evidence_name",
    "write_junit",
    "write_results_csv",
    "write_run_outputs",
    "write_run_report",
]
