"""A labels file made elsewhere (a spreadsheet, another review tool): ``case, verdict, reviewer, note``.

One row per reviewed case: ``case`` is the conversation number (``3``) or number and turn
(``3.2``), ``verdict`` is pass or fail (any case), ``reviewer`` who decided (may be left empty
when ``--reviewer`` names them), ``note`` optional. A label is about the case's first (or only)
try; the tries of a repeated run are reviewed one by one in the terminal or the dashboard. Headers are matched after trimming and
without regard to case. Every problem is reported at once, by line, and nothing is imported from
a file that has any.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Collection
from pathlib import Path

from copilot_eval.history.human_verdicts import SOURCE_IMPORT, HumanLabel

COLUMNS = ("case", "verdict", "reviewer", "note")
_CASE = re.compile(r"\s*(\d+)(?:\.(\d+))?\s*")
_VERDICT = {"pass": "pass", "passed": "pass", "fail": "fail", "failed": "fail"}


class LabelsFileError(ValueError):
    """A labels file that cannot be imported; ``problems`` lists every one, by line."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        super().__init__(f"{path}: " + "; ".join(problems))
        self.path, self.problems = path, problems


def read_labels(
    path: Path | str, *, reviewer: str | None = None, known_cases: Collection[str] | None = None
) -> list[HumanLabel]:
    """The labels of ``path``; ``reviewer`` fills rows that name none. LabelsFileError lists every problem,
    a case the run does not have among them when ``known_cases`` (its case keys, ``3.1``) are given."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise LabelsFileError(path, [f"cannot read the file: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise LabelsFileError(path, [f"byte {exc.start + 1} is not UTF-8; save the file as UTF-8"]) from None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        raise LabelsFileError(path, [f"file is empty; expected a header {','.join(COLUMNS)} and rows"])
    header = [cell.strip().casefold() for cell in rows[0]]
    missing = [name for name in COLUMNS[:2] if name not in header]
    if missing:
        raise LabelsFileError(
            path,
            [
                f"line 1: header {','.join(rows[0])!r} has no {' or '.join(missing)} column (expected {','.join(COLUMNS)})"
            ],
        )
    where = {name: header.index(name) for name in COLUMNS if name in header}
    labels, problems = [], []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue

        def cell(name: str, row: list[str] = row) -> str:
            index = where.get(name)
            return row[index].strip() if index is not None and index < len(row) else ""

        case, verdict, who = _CASE.fullmatch(cell("case")), _VERDICT.get(cell("verdict").casefold()), cell("reviewer")
        who = who or (reviewer or "")
        if case is None:
            problems.append(f"line {line}, case: {cell('case')!r} is not a case number (3, or 3.2 for turn 2)")
        if verdict is None:
            problems.append(f"line {line}, verdict: {cell('verdict')!r} is not pass or fail")
        if not who:
            problems.append(f"line {line}, reviewer: empty; fill it in or give --reviewer")
        key = f"{int(case.group(1))}.{int(case.group(2) or 1)}" if case is not None else None
        if key is not None and known_cases is not None and key not in known_cases:
            shown = ", ".join(sorted(known_cases, key=_case_order))
            problems.append(f"line {line}, case: the run has no case {key} (its cases: {shown})")
            key = None
        if key is not None and verdict is not None and who:
            labels.append(HumanLabel(key, verdict, who, note=cell("note") or None, source=SOURCE_IMPORT))
    if problems:
        raise LabelsFileError(path, problems)
    if not labels:
        raise LabelsFileError(path, ["no labels after the header"])
    return labels


def _case_order(key: str) -> tuple[int, ...]:
    return tuple(int(part) for part in key.split(".") if part.isdigit())


__all__ = ["COLUMNS", "LabelsFileError", "read_labels"]
