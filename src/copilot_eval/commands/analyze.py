"""``copilot-eval analyze`` on the commands floor: an Evaluate-tab export read as a run, then finished like every run.

``platform_runs.export`` reads the export (``EvalSetError`` names the file and row) and keeps a copy
of it as the run's evidence; the finisher writes every other file and decides the verdict.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from copilot_eval.history.records import SOURCE_ANALYZE
from copilot_eval.platform_runs.export import export_run
from copilot_eval.runs.finish import Finished, FinishOptions, FolderRun, finish_run_folders


def analyze_export(
    export: Path, out: Path, *, name: str | None, agent_name: str | None, finish: FinishOptions
) -> Finished:
    """Read ``export`` into a run in ``out`` (``agent_name`` names its agent when given) and finish the folder."""
    run, test_set = export_run(export, out, name=name)
    if agent_name is not None and agent_name.strip():
        run = run.model_copy(update={"agent_name": agent_name.strip()})
    return finish_run_folders([FolderRun(out, run, test_set)], replace(finish, source=SOURCE_ANALYZE))


__all__ = ["analyze_export"]
