"""Moved: the evidence table lives in ``copilot_eval.reports.evidence_table``; this name stays importable."""

from __future__ import annotations

from copilot_eval.reports.evidence_table import evidence_table

__all__ = ["evidence_table"]
