"""Reports: the terminal summary of a run (JSON and CSV live in evalsets)."""

from __future__ import annotations

from copilot_eval.reports.terminal import print_summary, summary_table, totals_line

__all__ = ["print_summary", "summary_table", "totals_line"]
