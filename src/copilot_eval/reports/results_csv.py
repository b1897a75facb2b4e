"""Export a run in the column layout of Copilot Studio's results CSV.

Columns: ``question, expectedResponse, actualResponse`` then, per grader ``i`` (1-based),
``testMethodType_i, result_i, passingScore_i, explanation_i``. The number of grader groups is the
largest number of grades any case has (at least one, so a run without grades still shows each
case's outcome).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.errors import EvalSetWriteError
from copilot_eval.evalsets.limits import RESULTS_BASE_COLUMNS, RESULTS_GRADER_COLUMNS
from copilot_eval.evalsets.model import EvalTestCase, EvalTestSet
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult, EvalRun, GradeRecord
from copilot_eval.untrusted.utf8 import utf8_text

# The platform shows capitalised verdicts in its export.
_RESULT_WORDS = {
    CaseStatus.PASS: "Pass",
    CaseStatus.FAIL: "Fail",
    CaseStatus.ERROR: "Error",
    CaseStatus.UNKNOWN: "Unknown",
    CaseStatus.NOT_RUN: "Not run",
}


def results_header(grader_count: int) -> list[str]:
    """Return the results CSV header for ``grader_count`` grader column groups."""
    header = list(RESULTS_BASE_COLUMNS)
    for index in range(1, grader_count + 1):
        header.extend(f"{column}_{index}" for column in RESULTS_GRADER_COLUMNS)
    return header


def _number(value: float | None) -> str:
    # Unknown stays empty, never 0; whole numbers print without a trailing ".0".
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _grade_cells(grade: GradeRecord) -> list[str]:
    # A platform metric that errored has no explanation but names its error reason: that is the explanation.
    explanation = grade.explanation or grade.error_reason or ""
    return [grade.method, _RESULT_WORDS[grade.status], _number(grade.passing_score), explanation]


def _row(result: EvalCaseResult, case: EvalTestCase, grader_count: int) -> list[str]:
    row = [case.question, case.response, result.actual_response or ""]
    grades = [_grade_cells(grade) for grade in result.grades]
    if not grades:
        # No grader detail: still say what happened to the case, and why.
        grades = [["", _RESULT_WORDS[result.effective_status], "", result.failure_reason or ""]]
    for cells in grades:
        row.extend(cells)
    row.extend([""] * (len(RESULTS_BASE_COLUMNS) + 4 * grader_count - len(row)))
    return row


def results_csv_text(run: EvalRun, test_set: EvalTestSet) -> str:
    """Return ``run`` as results-CSV text, looking up each case (conversationNumber, turn) in ``test_set``."""
    results = run.results or []
    by_turn = case_turns(test_set)
    missing = sorted({(r.conversation_number, r.turn or 1) for r in results} - set(by_turn))
    if missing:
        raise EvalSetWriteError(
            None,
            [
                f"result for conversationNumber {n}{f' turn {t}' if t != 1 else ''} has no case in test set "
                f"{test_set.name!r}"
                for n, t in missing
            ],
        )
    grader_count = max([1, *(len(r.grades) for r in results)])
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(results_header(grader_count))
    for result in results:
        writer.writerow(_row(result, by_turn[(result.conversation_number, result.turn or 1)], grader_count))
    return buffer.getvalue()


def write_results_csv(run: EvalRun, test_set: EvalTestSet, path: Path | str) -> None:
    """Write ``run`` to ``path`` as a Copilot Studio style results CSV (nothing written on error)."""
    path = Path(path)
    try:
        text = results_csv_text(run, test_set)
        data = utf8_text(text).encode("utf-8")  # an answer's lone surrogate becomes U+FFFD, the rest is kept
    except EvalSetWriteError as exc:
        raise EvalSetWriteError(path, exc.problems) from None
    except UnicodeEncodeError as exc:
        raise EvalSetWriteError(path, [f"text cannot be encoded as UTF-8: {exc.reason}"]) from None
    write_bytes_atomically(path, data)


__all__ = [
    "results_csv_text",
    "results_header",
    "write_results_csv",
]
