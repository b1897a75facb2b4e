"""``--discard-passing-workdirs``: the working directories of passing cases removed once they are graded.

A passing case's folder says nothing a failing one's would; removing them keeps disk use down on
long runs. Which folder a case used is read from its evidence (``working_directory``), and whether
a folder may be removed (ours, not in use) is ``copilot_eval.workdirs``'s decision.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from copilot_eval.evalsets import CaseStatus, EvalCaseResult
from copilot_eval.reports.run_folder import resolve_evidence
from copilot_eval.workdirs import remove_working_directory


def discard_passing_workdirs(case_results: Iterable[EvalCaseResult], out: Path) -> int:
    """Remove the working directories of passing cases (read from their evidence files in ``out``); how many."""
    removed = 0
    for case in case_results:
        if case.effective_status is not CaseStatus.PASS or not case.evidence_path:
            continue
        evidence = resolve_evidence(out, case.evidence_path)
        if evidence is None:
            continue
        try:
            folder = json.loads(evidence.read_text(encoding="utf-8")).get("working_directory")
        except (OSError, ValueError):
            continue
        if folder and remove_working_directory(folder):
            removed += 1
    return removed


__all__ = ["discard_passing_workdirs"]
