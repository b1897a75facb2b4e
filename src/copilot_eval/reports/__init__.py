"""Reports: the output layer, every file and view a person or a CI job reads.

Terminal tables, ``run.json`` and the results CSV, evidence file names, the pytest failure text,
the HTML reports (a run, a comparison, a pytest session), JUnit XML, Markdown summaries. Every
file goes through the leaf ``copilot_eval.atomic_write``. Names are loaded on first use so that
evalsets can import the results CSV writer without importing the rest.
"""

from __future__ import annotations

import importlib
from typing import Any

# Public name -> module of copilot_eval.reports that defines it.
_EXPORTS: dict[str, str] = {
    "print_summary": "terminal",
    "summary_table": "terminal",
    "totals_line": "terminal",
    "results_csv_text": "results_csv",
    "write_results_csv": "results_csv",
    "evidence_table": "evidence_table",
    "render_result": "inspect_view",
    "evidence_file_name": "evidence_names",
    "unit_evidence_name": "evidence_names",
    "describe_unit": "failure_text",
    "RUN_JSON": "run_folder",
    "RESULTS_CSV": "run_folder",
    "write_run_outputs": "run_files",
    "RUN_SCHEMA_VERSION": "run_folder",
    "RunFolder": "run_folder",
    "read_run_folder": "run_folder",
    "run_report_html": "html_run",
    "write_run_report": "html_run",
    "run_summary_markdown": "markdown",
    "RunComparison": "compare",
    "compare_runs": "compare",
    "comparison_html": "compare_views",
    "comparison_markdown": "compare_views",
    "junit_xml": "junit",
    "write_junit": "junit",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'copilot_eval.reports' has no attribute {name!r}")
    return getattr(importlib.import_module(f"copilot_eval.reports.{module}"), name)


__all__ = sorted(_EXPORTS)
