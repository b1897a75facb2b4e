"""``copilot-eval studio-eval run|get`` on the commands floor: a platform run's folder finished, with the problem met.

``platform_runs.studio_flow`` starts or reads the run and keeps the platform's own evidence (its
JSON, the snapshot); the finisher writes every other file and decides the one verdict, the
problem the command met on the way (an export that could not be joined, the platform failing)
included.
"""

from __future__ import annotations

from copilot_eval.exit_codes import PLATFORM, UNUSABLE_INPUT, Verdict
from copilot_eval.platform_runs.export_join import ExportJoinError
from copilot_eval.platform_runs.studio_flow import StudioOutcome
from copilot_eval.runs.finish import Finished, FinishOptions, FolderRun, finish_run_folders
from copilot_eval.studio_eval import StudioEvalError


def problem_verdict(exc: Exception) -> Verdict:
    """A studio-eval error's row: the platform's (3) when the API says so, else unusable input (2)."""
    infrastructure = isinstance(exc, StudioEvalError) and exc.infrastructure
    return Verdict(PLATFORM if infrastructure else UNUSABLE_INPUT, str(exc))


def outcome_problem(outcome: StudioOutcome) -> Verdict | None:
    """The verdict of the problem that stopped a studio-eval command (or kept its text out), None without one."""
    if isinstance(outcome.problem, ExportJoinError):
        return Verdict(UNUSABLE_INPUT, str(outcome.problem))
    return problem_verdict(outcome.problem) if outcome.problem is not None else None


def finish_studio(outcome: StudioOutcome, options: FinishOptions) -> tuple[Finished | None, Verdict]:
    """Finish the platform run's folder (the problem met in its verdict); without a run, no folder and why."""
    problem = outcome_problem(outcome)
    if outcome.run is None or outcome.folder is None or outcome.test_set is None:
        return None, problem or Verdict(PLATFORM, "the platform gave no run")
    # The platform's run id is its identity in the history: reading the same run again stores it once.
    met = [problem] if problem is not None else []
    finished = finish_run_folders([FolderRun(outcome.folder, outcome.run, outcome.test_set)], options, met=met)
    return finished, finished.verdict


__all__ = ["finish_studio", "outcome_problem", "problem_verdict"]
