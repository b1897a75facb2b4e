"""Read the results CSV that Copilot Studio's Evaluate tab exports, reporting every problem.

Columns: ``question, expectedResponse, actualResponse`` then, per test method ``i`` (1-based, any
number), ``testMethodType_i, result_i, passingScore_i, explanation_i``. A comment block before
the header is skipped as in test sets. This module only reads: turning the rows into a run, with
platform errors and limitation detection, is the runs layer's job.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.evalsets.csv_reader import csv_records, is_comment_row
from copilot_eval.evalsets.errors import EvalSetReadError
from copilot_eval.evalsets.limits import RESULTS_BASE_COLUMNS, RESULTS_GRADER_COLUMNS
from copilot_eval.evalsets.run_model import CaseStatus, GradeRecord

_GROUP = re.compile(r"(testMethodType|result|passingScore|explanation)_([0-9]+)")
_VERDICTS = {
    "pass": CaseStatus.PASS,
    "passed": CaseStatus.PASS,
    "fail": CaseStatus.FAIL,
    "failed": CaseStatus.FAIL,
    "error": CaseStatus.ERROR,
    "unknown": CaseStatus.UNKNOWN,
}


@dataclass(frozen=True)
class ExportedResult:
    """One row of an export: the question, the reference, what the agent said, and each method's verdict."""

    line: int
    question: str
    expected_response: str
    actual_response: str
    grades: list[GradeRecord] = field(default_factory=list)


def _header_problems(header: list[str], line: int) -> tuple[int, list[str]]:
    """The number of method groups, and what is wrong with the header."""
    if tuple(header[:3]) != RESULTS_BASE_COLUMNS:
        return 0, [
            f"line {line}: header starts {','.join(header[:3])!r}; a results export starts "
            f"{','.join(RESULTS_BASE_COLUMNS)!r}"
        ]
    groups, problems = (len(header) - 3) // 4, []
    expected = [f"{name}_{i}" for i in range(1, groups + 1) for name in RESULTS_GRADER_COLUMNS]
    if (len(header) - 3) % 4 or header[3:] != expected:
        problems.append(
            f"line {line}: method columns {','.join(header[3:])!r} are not groups of "
            f"{','.join(c + '_i' for c in RESULTS_GRADER_COLUMNS)} numbered from 1"
        )
    return groups, problems


def _score(text: str, line: int, column: str, problems: list[str]) -> float | None:
    text = text.strip().removesuffix("%").strip()
    if not text:
        return None  # unknown stays None
    try:
        return float(text)
    except ValueError:
        problems.append(f"line {line}, {column}: {text!r} is not a number")
        return None


def _grades(row: list[str], groups: int, line: int, problems: list[str]) -> list[GradeRecord]:
    grades = []
    for index in range(1, groups + 1):
        method, verdict, passing, explanation = row[3 + 4 * (index - 1) : 3 + 4 * index]
        if not (method.strip() or verdict.strip()):
            continue  # this row used fewer methods than the widest one
        status = _VERDICTS.get(verdict.strip().casefold())
        if status is None:
            problems.append(
                f"line {line}, result_{index}: {verdict!r} is not a verdict (expected Pass, Fail, Error or Unknown)"
            )
            continue
        grades.append(
            GradeRecord(
                method=method.strip() or f"method {index}",
                status=status,
                passing_score=_score(passing, line, f"passingScore_{index}", problems),
                explanation=explanation or None,
            )
        )
    return grades


def parse_results_export(text: str) -> tuple[list[ExportedResult], list[str]]:
    """Parse export text into rows, collecting every problem instead of stopping at the first."""
    rows: list[ExportedResult] = []
    problems: list[str] = []
    header: list[str] | None = None
    groups = 0
    for line, _, row in csv_records(text.removeprefix("\ufeff")):
        if isinstance(row, csv.Error):
            problems.append(f"line {line}: bad quoting ({row})")
            break
        if not row or (header is None and is_comment_row(row)):
            continue
        if header is None:
            header = row
            groups, found = _header_problems(row, line)
            problems += found
            if tuple(row[:3]) != RESULTS_BASE_COLUMNS:
                break  # not an export: its rows cannot be read as one
            continue
        if len(row) != len(header):
            problems.append(f"line {line}: expected {len(header)} fields, found {len(row)}")
            continue
        rows.append(ExportedResult(line, row[0], row[1], row[2], _grades(row, groups, line, problems)))
    if header is None:
        problems.append("no header line; expected " + ",".join(RESULTS_BASE_COLUMNS) + ",testMethodType_1,...")
    elif not rows and not problems:
        problems.append("no result rows after the header")
    return rows, problems


def read_results_export(path: Path | str) -> list[ExportedResult]:
    """Read an Evaluate-tab results export; EvalSetReadError lists every problem when it cannot be used."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EvalSetReadError(path, [f"cannot read the file: {exc.strerror or exc}"]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EvalSetReadError(path, [f"byte {exc.start + 1} is not UTF-8; save the export as UTF-8"]) from None
    rows, problems = parse_results_export(text)
    if problems:
        raise EvalSetReadError(path, problems)
    return rows


__all__ = ["ExportedResult", "parse_results_export", "read_results_export"]
