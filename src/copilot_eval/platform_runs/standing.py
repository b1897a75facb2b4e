"""The standing rule for platform runs: another surface that answered well confirms a limitation.

The same rule as a multi-surface ``copilot-eval run`` (``runs.surfaces.confirming_note``): a
suspected limitation is confirmed when a limitation-free run of the same questions on another
surface passed at least half of them. For an evaluation API run the other surface is a run folder
named with ``--confirm-with``: a draft run confirming a published run's HTTP 500, a Direct Line run
of the same questions, a re-run. Cases are matched by the platform's test case ids when both runs
have them, by case number otherwise; a refused run (no results) is compared on every question.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.evalsets import CaseStatus, EvalRun
from copilot_eval.reports.run_folder import RunFolder
from copilot_eval.runs.limitation import confirm_limitation
from copilot_eval.runs.surfaces import confirming_note


def same_test_set_problem(test_set_id: str | None, other: RunFolder) -> str | None:
    """Why ``other`` cannot stand beside a run of platform test set ``test_set_id`` (another set's run), or None."""
    theirs = other.run.platform_run.test_set_id if other.run.platform_run else None
    if test_set_id and theirs and test_set_id != theirs:
        return f"--confirm-with {other.folder}: a run of test set {theirs}, not of {test_set_id}"
    return None


def _questions(run: EvalRun, other: EvalRun) -> set[tuple[int, int]]:
    """The other run's (number, turn) keys of the questions ``run`` did not pass."""
    theirs = other.results or []
    if not run.results:
        return {(r.conversation_number, r.turn or 1) for r in theirs}
    failed = [r for r in run.results if r.effective_status is not CaseStatus.PASS]
    ids = {r.case_id for r in failed if r.case_id}
    if ids and theirs and all(r.case_id for r in theirs):
        return {(r.conversation_number, r.turn or 1) for r in theirs if r.case_id in ids}
    return {(r.conversation_number, r.turn or 1) for r in failed}


def confirm_with_folders(run: EvalRun, others: Sequence[RunFolder]) -> tuple[EvalRun, str | None]:
    """``run`` with its limitation confirmed by the first other run that answered the same questions well."""
    if run.runtime_limitation is None:
        return run, None
    for other in others:
        if other.run.runtime_limitation is not None:
            continue
        questions = _questions(run, other.run)
        if not questions:
            continue
        note = confirming_note(other.folder.name, other.run, questions, citations=None)
        if note is not None:
            return confirm_limitation(run, by=note), note
    return run, None


__all__ = ["confirm_with_folders", "same_test_set_problem"]
