"""Compare two run folders on disk; a folder that cannot be read stops the command naming it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.errors import EvalSetError
from copilot_eval.reports.compare import FindingChanges, RunComparison, compare_runs
from copilot_eval.reports.findings import read_findings
from copilot_eval.reports.run_folder import RunFolder, read_run_folder
from copilot_eval.reports.set_match import other_set_problem


class CompareError(ValueError):
    """A run folder that cannot be compared; the message names it (the baseline or the candidate) and why."""


def _read(path: Path | str | RunFolder, role: str) -> RunFolder:
    try:
        return read_run_folder(path)
    except EvalSetError as exc:
        raise CompareError(f"{role} {exc}") from None


def _fingerprint(folder: RunFolder) -> str | None:
    return folder.run.fingerprints.test_set if folder.run.fingerprints is not None else None


def compare_folders(
    baseline: Path | str, candidate: Path | str | RunFolder, *, allow_other_set: bool = False
) -> RunComparison:
    """Read both run folders and compare them; questions come from the kept test sets (CompareError names a bad one).

    Runs of different test sets (their fingerprints differ) are refused, saying what differs, unless
    ``allow_other_set``.
    """
    before, after = _read(baseline, "baseline"), _read(candidate, "candidate")
    if not allow_other_set:
        problem = other_set_problem(
            (f"baseline {baseline}", _fingerprint(before), before.test_set),
            (f"candidate {candidate}", _fingerprint(after), after.test_set),
        )
        if problem is not None:
            raise CompareError(problem)
    questions: dict[tuple[int, int], str] = {}
    for folder in (before, after):  # the candidate's wording wins when a question was edited
        if folder.test_set is not None:
            questions.update({key: c.question for key, c in case_turns(folder.test_set).items()})
    comparison = compare_runs(before.run, after.run, questions=questions)
    findings = FindingChanges.between(read_findings(before.folder), read_findings(after.folder))
    return replace(comparison, findings=findings)


__all__ = ["CompareError", "compare_folders"]
