"""Runs the platform made, entering in one place: an Evaluate-tab export or a run of the evaluation API.

Both become an ``EvalRun`` through ``record.platform_run`` (our own runs' ``summarise`` plus the
platform's signals), and from there reach reports, compare, JUnit and history exactly like ours.
``run_from_export`` reads an export (``copilot-eval analyze``); ``run_from_studio`` maps an API run,
``join_export`` puts an export's text beside it or refuses, and ``start_studio_run`` /
``read_studio_run`` drive the wire client (``copilot_eval.studio_eval``) into a run folder.
"""

from __future__ import annotations

from copilot_eval.platform_runs.export import run_from_export
from copilot_eval.platform_runs.export_join import ExportJoin, ExportJoinError, join_export
from copilot_eval.platform_runs.record import platform_run
from copilot_eval.platform_runs.standing import confirm_with_folders
from copilot_eval.platform_runs.studio import case_facts, metric_grade, run_from_studio
from copilot_eval.platform_runs.studio_flow import (
    StudioInputError,
    StudioOptions,
    StudioOutcome,
    read_studio_run,
    resolve_test_set,
    start_studio_run,
)

__all__ = [
    "ExportJoin",
    "ExportJoinError",
    "StudioInputError",
    "StudioOptions",
    "StudioOutcome",
    "case_facts",
    "confirm_with_folders",
    "join_export",
    "metric_grade",
    "platform_run",
    "read_studio_run",
    "resolve_test_set",
    "run_from_export",
    "run_from_studio",
    "start_studio_run",
]
