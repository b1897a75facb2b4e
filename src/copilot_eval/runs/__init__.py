"""Runs: play a test set against an agent with concurrency, repeats, resume and limitation detection."""

from __future__ import annotations

# Repeat statistics are read from an EvalRun alone and live in evalsets (reports reads them too).
from copilot_eval.evalsets.repeat_stats import CaseRepeats, flaky_cases, pass_rates, repeat_stats
from copilot_eval.evidence.platform_error import KNOWN_ERROR_CODES, platform_error_code
from copilot_eval.runs.case_runner import Unit, run_unit
from copilot_eval.runs.checkpoint import CHECKPOINT_NAME, Checkpoint, CheckpointError
from copilot_eval.runs.eval_runner import plan_units, play_eval_set, summarise
from copilot_eval.runs.executor import AllWorkersLost, Executor, ExecutorError, LocalExecutor, Worker, WorkerLost
from copilot_eval.runs.limitation import (
    KNOWN_FALLBACK_TEXTS,
    Limitation,
    confirm_limitation,
    detect_runtime_limitation,
)
from copilot_eval.runs.merge import MergeError
from copilot_eval.runs.prepare import check_references
from copilot_eval.runs.python_api import merge_run_folders, regrade_run, run_eval_set, run_surfaces
from copilot_eval.runs.ray_executor import RayExecutor
from copilot_eval.runs.settings import (
    DEFAULT_CONCURRENCY,
    HowToFinish,
    HowToGrade,
    HowToPlay,
    RunBudget,
    RunSettings,
    SettingsError,
    WhatToPlay,
)
from copilot_eval.runs.shards import ShardError, parse_shard

__all__ = [
    "CHECKPOINT_NAME",
    "DEFAULT_CONCURRENCY",
    "KNOWN_ERROR_CODES",
    "KNOWN_FALLBACK_TEXTS",
    "AllWorkersLost",
    "CaseRepeats",
    "Checkpoint",
    "CheckpointError",
    "Executor",
    "ExecutorError",
    "HowToFinish",
    "HowToGrade",
    "HowToPlay",
    "Limitation",
    "LocalExecutor",
    "MergeError",
    "RayExecutor",
    "RunBudget",
    "RunSettings",
    "SettingsError",
    "ShardError",
    "Unit",
    "WhatToPlay",
    "Worker",
    "WorkerLost",
    "check_references",
    "confirm_limitation",
    "detect_runtime_limitation",
    "flaky_cases",
    "merge_run_folders",
    "parse_shard",
    "pass_rates",
    "plan_units",
    "platform_error_code",
    "play_eval_set",
    "regrade_run",
    "repeat_stats",
    "run_eval_set",
    "run_surfaces",
    "run_unit",
    "summarise",
]
