"""Moved: the results CSV writer lives in ``copilot_eval.reports.results_csv``; these names stay importable."""

from __future__ import annotations

from copilot_eval.reports.results_csv import (
    RESULTS_BASE_COLUMNS,
    RESULTS_GRADER_COLUMNS,
    results_csv_text,
    results_header,
    write_results_csv,
)

__all__ = [
    "RESULTS_BASE_COLUMNS",
    "RESULTS_GRADER_COLUMNS",
    "results_csv_text",
    "results_header",
    "write_results_csv",
]
