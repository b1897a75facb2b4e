"""Compare two run folders on disk; a folder that cannot be read stops the command naming it."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.errors import EvalSetError
from copilot_eval.reports.compare import RunComparison, compare_runs
from copilot_eval.reports.run_folder import RunFolder, read_run_folder


class CompareError(ValueError):
    """A run folder that cannot be compared; the message names it (the baseline or the candidate) and why."""


def _read(path: Path | str, role: str) -> RunFolder:
    try:
        return read_run_folder(path)
    except EvalSetError as exc:
        raise CompareError(f"{role} {exc}") from None


def compare_folders(baseline: Path | str, candidate: Path | str) -> RunComparison:
    """Read both run folders and compare them; questions come from the kept test sets (CompareError names a bad one)."""
    before, after = _read(baseline, "baseline"), _read(candidate, "candidate")
    questions: dict[tuple[int, int], str] = {}
    for folder in (before, after):  # the candidate's wording wins when a question was edited
        if folder.test_set is not None:
            questions.update({key: c.question for key, c in case_turns(folder.test_set).items()})
    return compare_runs(before.run, after.run, questions=questions)


__all__ = ["CompareError", "compare_folders"]
