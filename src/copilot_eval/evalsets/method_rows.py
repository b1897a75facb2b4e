"""The per-row method dialect: ``Prompt,Expected response,Test Method Type,Passing Score``.

Microsoft's newest sample sets (the Employee Self-Service evaluation samples, "upload directly
into Copilot Studio's Evaluation tool") give every row its own grading method and pass mark. Unlike
the positional templates, these files are found by column name, and real copies are untidy: a
header cell with a trailing space (``Expected response ``), extra columns meant to be deleted
before upload (``Category (delete before testing)``), ``Passing Score`` missing where no method
takes one, runs of blank ``,,,`` rows at the end, and text mis-decoded by a spreadsheet. So:

- header cells are matched after trimming (and without regard to case or inner spacing);
  ``Prompt`` and ``Test Method Type`` are required, ``Expected response`` and ``Passing Score``
  optional; any other column is named in a warning and ignored;
- blank rows are skipped and counted in a note;
- a method is read as Copilot Studio names it (``evalsets.test_methods``); an unknown one is a
  problem naming the known ones; a row without one is graded by the run's default graders
  (``--grader``), which a note says;
- a pass mark must be a number in the method's range; one given to a method that takes none is
  ignored with a warning;
- mis-decoded text (``â€™``) is warned about with its line (the file still loads).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from copilot_eval.evalsets.mis_decoded import mis_decoded_warning
from copilot_eval.evalsets.model import EvalTestCase
from copilot_eval.evalsets.test_methods import known_methods, test_method

PROMPT, EXPECTED, METHOD, PASSING = "Prompt", "Expected response", "Test Method Type", "Passing Score"
#: The dialect's columns in the order we write them.
METHOD_ROWS_COLUMNS: tuple[str, ...] = (PROMPT, EXPECTED, METHOD, PASSING)
_REQUIRED = (PROMPT, METHOD)
_SPACES = re.compile(r"\s+")


def _folded(cell: str) -> str:
    return _SPACES.sub(" ", cell.strip()).casefold()


_KNOWN = {_folded(name): name for name in METHOD_ROWS_COLUMNS}


@dataclass(frozen=True)
class MethodColumns:
    """Where the dialect's columns are in one file's header, and the columns it does not know."""

    positions: dict[str, int]
    extra: list[str] = field(default_factory=list)


def method_rows_header(header: Sequence[str]) -> MethodColumns | None:
    """The dialect's columns in ``header`` (cells trimmed), or ``None`` when it is not this dialect's header."""
    positions: dict[str, int] = {}
    extra: list[str] = []
    for index, cell in enumerate(header):
        name = _KNOWN.get(_folded(cell))
        if name is None or name in positions:
            extra.append(cell)
        else:
            positions[name] = index
    if not all(name in positions for name in _REQUIRED):
        return None
    return MethodColumns(positions, extra)


@dataclass
class MethodRows:
    """What the rows of a dialect file gave: cases, problems, warnings (fixable, not fatal) and notes."""

    columns: MethodColumns
    cases: list[EvalTestCase] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    blank_lines: list[int] = field(default_factory=list)
    without_method: list[int] = field(default_factory=list)
    without_reference: dict[str, list[int]] = field(default_factory=dict)  # method -> lines

    def __post_init__(self) -> None:
        if self.columns.extra:
            named = ", ".join(repr(cell.strip()) for cell in self.columns.extra)
            self.warnings.append(
                f"column{'s' if len(self.columns.extra) > 1 else ''} {named} "
                f"{'are' if len(self.columns.extra) > 1 else 'is'} not part of the template and "
                f"{'are' if len(self.columns.extra) > 1 else 'is'} ignored "
                f"(the template's columns: {', '.join(METHOD_ROWS_COLUMNS)})"
            )

    def _cell(self, row: Sequence[str], name: str) -> str:
        position = self.columns.positions.get(name)
        return row[position] if position is not None and position < len(row) else ""

    def add(self, row: Sequence[str], line: int) -> None:
        """Read one record of the file (its first line is ``line``)."""
        if not any(cell.strip() for cell in row):
            self.blank_lines.append(line)
            return
        prompt, expected = self._cell(row, PROMPT), self._cell(row, EXPECTED)
        for name, text in ((PROMPT, prompt), (EXPECTED, expected)):
            if (warning := mis_decoded_warning(text, where=f"line {line}, {name}")) is not None:
                self.warnings.append(warning)
        method_text, score_text = self._cell(row, METHOD).strip(), self._cell(row, PASSING).strip()
        method = test_method(method_text)
        if method_text and method is None:
            self.problems.append(
                f"line {line}, {METHOD}: {method_text!r} is not a test method Copilot Studio names "
                f"(known: {known_methods()})"
            )
            return
        if method is None:
            self.without_method.append(line)
        passing = self._pass_mark(score_text, method.name if method else None, line)
        if passing is False:
            return
        if method is not None and method.needs_reference and not expected.strip():
            self.without_reference.setdefault(method.name, []).append(line)
        self.cases.append(
            EvalTestCase(
                conversation_number=len(self.cases) + 1,
                question=prompt,
                response=expected,
                testing_method=method.name if method else None,
                passing_score=passing if isinstance(passing, float) else None,
            )
        )

    def _pass_mark(self, text: str, method: str | None, line: int) -> float | bool | None:
        """The row's pass mark, ``None`` without one, ``False`` when it is a problem (already reported)."""
        if not text:
            return None
        try:
            value = float(text.removesuffix("%").strip())
        except ValueError:
            self.problems.append(f"line {line}, {PASSING}: {text!r} is not a number")
            return False
        found = test_method(method)
        if found is None or found.pass_mark is None:
            what = f"{method} takes no pass mark" if method else "the row names no test method"
            self.warnings.append(f"line {line}, {PASSING}: {text!r} is ignored: {what}")
            return None
        low, high = found.pass_mark
        if not low <= value <= high:
            self.problems.append(f"line {line}, {PASSING}: {text!r} is outside {method}'s range {low:g}-{high:g}")
            return False
        return value

    def reference_warnings(self) -> list[str]:
        """Rows whose method compares with the Expected response and have none: a template not filled in yet."""
        return [
            f"{len(lines)} row{'s' if len(lines) != 1 else ''} ({_lines(lines)}) name {name} but give no "
            f"{EXPECTED}: {'they' if len(lines) != 1 else 'it'} will be graded as errors (no reference) until filled in"
            for name, lines in self.without_reference.items()
        ]

    def notes(self) -> list[str]:
        """What a reader should know about how the file was read (not problems)."""
        notes = []
        if self.blank_lines:
            count = len(self.blank_lines)
            notes.append(f"{count} blank row{'s' if count != 1 else ''} ignored ({_lines(self.blank_lines)})")
        if self.without_method:
            count = len(self.without_method)
            notes.append(
                f"{count} row{'s' if count != 1 else ''} name{'s' if count == 1 else ''} no {METHOD} "
                f"({_lines(self.without_method)}): graded by the run's default graders (--grader)"
            )
        return notes


def _lines(numbers: Sequence[int]) -> str:
    """``line 4`` or ``lines 12-13, 20``: consecutive numbers as ranges."""
    ranges: list[list[int]] = []
    for number in numbers:
        if ranges and number == ranges[-1][-1] + 1:
            ranges[-1].append(number)
        else:
            ranges.append([number])
    text = ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in ranges)
    return f"line{'s' if len(numbers) > 1 else ''} {text}"


__all__ = ["METHOD_ROWS_COLUMNS", "MethodColumns", "MethodRows", "method_rows_header"]
