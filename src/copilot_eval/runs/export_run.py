"""Moved: an Evaluate-tab export becomes an EvalRun in ``copilot_eval.platform_runs.export``; this name stays."""

from __future__ import annotations

from copilot_eval.platform_runs.export import run_from_export

__all__ = ["run_from_export"]
