"""Runs: play a test set against an agent with concurrency, repeats, resume and limitation detection."""

from __future__ import annotations

from copilot_eval.runs.case_runner import Unit, run_unit
from copilot_eval.runs.checkpoint import CHECKPOINT_NAME, Checkpoint, CheckpointError
from copilot_eval.runs.eval_runner import DEFAULT_CONCURRENCY, plan_units, run_eval_set, summarise
from copilot_eval.runs.limitation import KNOWN_FALLBACK_TEXTS, Limitation, detect_runtime_limitation
from copilot_eval.runs.repeats import CaseRepeats, flaky_cases, pass_rates, repeat_stats

__all__ = [
    "CHECKPOINT_NAME", "DEFAULT_CONCURRENCY", "KNOWN_FALLBACK_TEXTS", "CaseRepeats", "Checkpoint", "CheckpointError",
    "Limitation", "Unit", "detect_runtime_limitation", "flaky_cases", "pass_rates", "plan_units", "repeat_stats",
    "run_eval_set", "run_unit", "summarise",
]
