"""Read a test set from a Copilot Studio CSV, reporting every problem with its line number.

Python's ``csv`` module does the parsing; this module adds what it does not say on its own: which
line a broken record starts on, bytes that are not UTF-8, a header that matches no template, and
rows of the wrong width; and the files people give it that are not comma-separated text at all:
an Excel workbook, or the CSV Excel saves with ``;`` where the list separator is ``;``. The comment block that today's downloadable templates carry before the
header (each line one quoted field starting with ``#``) is kept as the set's preamble, and line
numbers stay the file's own. ``strict=True`` matters: without it an unclosed quote silently swallows
the rest of the file into one field.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.evalsets.csv_templates import (
    METHOD_ROWS,
    TEMPLATES,
    CsvTemplate,
    describe_header_problem,
    folded_column,
    template_for_header,
)
from copilot_eval.evalsets.errors import EvalSetReadError
from copilot_eval.evalsets.limits import EVAL_IMPORT_MAX_BYTES
from copilot_eval.evalsets.method_rows import MethodRows, method_rows_header
from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.rule_sets import RuleSet
from copilot_eval.evalsets.validation import validate_eval_test_set

_UTF8_BOM = b"\xef\xbb\xbf"
SAVE_AS_CSV = 'save it as "CSV UTF-8 (comma delimited) (*.csv)"'
_ZIP = b"PK\x03\x04"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Excel 97-2003 .xls (and other Office files)
_OTHER_SEPARATORS = {";": "';'", "\t": "tabs"}
_INTEGER = re.compile(r"[+-]?[0-9]+")
# Enough to locate an encoding problem; a file in the wrong encoding would otherwise flood the list.
_MAX_ENCODING_REPORTS = 10
# A header is short; reading a few KiB is enough to recognise one without loading a 5 MB file.
_SNIFF_BYTES = 8192


@dataclass
class CsvParse:
    """What a CSV file yielded: the cases that parsed, the template, and every reading problem."""

    template: CsvTemplate | None = None
    cases: list[EvalTestCase] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    preamble: list[str] = field(default_factory=list)
    # Things to fix that do not stop the file loading (mis-decoded text, ignored columns), and notes
    # on how it was read (blank rows skipped, rows left to the default graders).
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def is_comment_row(row: list[str]) -> bool:
    """Whether a record before the header is a template comment line: a first field starting with ``#``."""
    return bool(row) and row[0].lstrip().startswith("#")


def csv_records(text: str) -> Iterator[tuple[int, int, list[str] | csv.Error]]:
    """Each record of CSV ``text`` with its first and last line, or the ``csv.Error`` it raised (reading goes on)."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    while True:
        start = reader.line_num + 1
        try:
            row: list[str] | csv.Error = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            row = exc
        yield start, reader.line_num, row


def _quoting_problem(start: int, end: int, exc: csv.Error) -> tuple[str, bool]:
    """The problem a record from line ``start`` to ``end`` that raised ``exc`` has, and whether the file ended in it."""
    if "unexpected end of data" in str(exc):
        return (
            f"line {start}: a quoted field opens in this record and is never closed "
            f"(the rest of the file, to line {end}, was read into it)"
        ), True
    if end > start:
        # The record ran past its own line: almost always a quote that was never closed,
        # whose field swallowed the following lines until some later quote.
        return (
            f"line {start}: a quoted field opens in this record and is not closed on its "
            f"line; it swallowed the lines up to line {end} ({exc})"
        ), False
    return (
        f'line {start}: bad quoting ({exc}); a field containing quotes must be quoted and its quotes doubled ("")'
    ), False


def _comment_text(row: list[str]) -> str:
    # A spreadsheet may pad a comment line with empty cells; they are not part of the comment.
    cells = list(row)
    while len(cells) > 1 and not cells[-1]:
        cells.pop()
    return ",".join(cells)


def _encoding_problems(data: bytes) -> list[str]:
    # bytes.splitlines breaks on \n, \r and \r\n, the same line breaks the csv reader counts.
    problems: list[str] = []
    bad_lines = 0
    for number, line in enumerate(data.splitlines(), start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad_lines += 1
            if bad_lines <= _MAX_ENCODING_REPORTS:
                byte = line[exc.start : exc.start + 1].hex()
                problems.append(
                    f"line {number}: byte 0x{byte} at column {exc.start + 1} is not UTF-8; save the file as UTF-8"
                )
    if bad_lines > _MAX_ENCODING_REPORTS:
        problems.append(f"... and {bad_lines - _MAX_ENCODING_REPORTS} more lines that are not UTF-8")
    return problems


def _not_text(data: bytes) -> str | None:
    """What a file is when it is a spreadsheet or an archive rather than CSV text, said so."""
    if data.startswith(_OLE):
        return f"this is an Excel 97-2003 workbook (.xls), not a CSV file: open it in Excel and {SAVE_AS_CSV}"
    if not data.startswith(_ZIP):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile:
        names = set()
    if "xl/workbook.xml" in names:
        return f"this is an Excel workbook (.xlsx), not a CSV file: open it in Excel and {SAVE_AS_CSV}"
    if "content.xml" in names:
        return "this is a spreadsheet (.ods), not a CSV file: save it as CSV, UTF-8, with ',' between fields"
    return "this is a ZIP archive, not a CSV file: give the test set's .csv file itself"


def _separator_problem(header: list[str]) -> str | None:
    """The header read as one field holding another separator: the file is not comma-separated."""
    if len(header) != 1:
        return None
    for separator, named in _OTHER_SEPARATORS.items():
        if len(header[0].split(separator)) > 1:
            if separator == ";":
                return (
                    "the fields are separated by ';', as Excel saves CSV where the list separator is ';' "
                    f"(many European locales); the importer needs commas: in Excel, {SAVE_AS_CSV}, or set "
                    "the list separator to ',' before saving"
                )
            return f"the fields are separated by {named}, not commas; {SAVE_AS_CSV}"
    return None


def _row_to_case(row: list[str], line: int, template: CsvTemplate, ordinal: int, parse: CsvParse) -> None:
    if template.number_column is None:
        number = ordinal  # single-response rows carry no number: file order is the number
    else:
        raw = row[template.number_column]
        if not _INTEGER.fullmatch(raw.strip()):
            parse.problems.append(f"line {line}, conversationNumber: {raw!r} is not an integer")
            return
        number = int(raw.strip())
    testing_method = None
    if template.testing_method_column is not None:
        # An empty cell means "no method given", so it reads back as None rather than "".
        testing_method = row[template.testing_method_column] or None
    parse.cases.append(
        EvalTestCase(
            conversation_number=number,
            question=row[template.question_column],
            response=row[template.response_column],
            testing_method=testing_method,
        )
    )


def _file_text(data: bytes, problems: list[str]) -> str | None:
    """The file's text without its BOM, adding its size and encoding problems; None when it holds no CSV text."""
    if len(data) > EVAL_IMPORT_MAX_BYTES:
        problems.append(f"file is {len(data):,} bytes; the import limit is {EVAL_IMPORT_MAX_BYTES:,} bytes (5 MB)")
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    if not data.strip():
        problems.append("file is empty; expected a header line and at least one row")
        return None
    not_text = _not_text(data)
    if not_text is not None:
        problems.append(not_text)
        return None
    problems.extend(_encoding_problems(data))
    return data.decode("utf-8", errors="replace")


def parse_csv_bytes(data: bytes) -> CsvParse:
    """Parse CSV bytes into cases, collecting every reading problem instead of stopping."""
    parse = CsvParse()
    text = _file_text(data, parse.problems)
    if text is None:
        return parse
    # The csv module refuses fields over 128 KiB by default, yet a legal 5 MB file may hold one.
    # The limit is process-wide, so it is only ever raised, never lowered again.
    if csv.field_size_limit() < len(text) + 1:
        csv.field_size_limit(len(text) + 1)
    header: list[str] | None = None
    by_name: MethodRows | None = None  # the per-row method dialect, read by column name
    ordinal = 0
    for start, end, row in csv_records(text):
        if isinstance(row, csv.Error):
            problem, at_end = _quoting_problem(start, end, row)
            parse.problems.append(problem)
            if at_end:
                break
            continue
        if not row:
            continue  # a blank line is not a record
        if header is None and is_comment_row(row):
            parse.preamble.append(_comment_text(row))
            continue
        if header is None:
            separated = _separator_problem(row)
            if separated is not None:
                parse.problems.append(f"line {start}: {separated}")
                return parse  # every row would repeat it
            header = row
            parse.template = template_for_header(row)
            if parse.template is None and (columns := method_rows_header(row)) is not None:
                parse.template, by_name = METHOD_ROWS, MethodRows(columns)
            if parse.template is None:
                parse.problems.append(f"line {start}: {describe_header_problem(row)}")
            continue
        if len(row) != len(header):
            parse.problems.append(
                f"line {start}: expected {len(header)} fields ({','.join(header)}), found "
                f"{len(row)}; a comma inside a field needs the field quoted"
            )
            continue
        if by_name is not None:
            by_name.add(row, start)
        elif parse.template is not None:
            ordinal += 1
            _row_to_case(row, start, parse.template, ordinal, parse)
    if by_name is not None:
        parse.cases, parse.notes = by_name.cases, by_name.notes()
        parse.problems += by_name.problems
        parse.warnings += by_name.warnings + by_name.reference_warnings()
    if header is None and not parse.problems:  # comment lines only: there is nothing to import
        parse.problems.append("no header line found after the comment lines; expected a header and rows")
    return parse


def looks_like_test_set(path: Path | str) -> bool:
    """Whether the first record after any comment block is a test-set header (case and spacing aside,
    reordered, or separated by ';' as Excel saves it in many locales).

    Meant for tools that must tell a test set from any other CSV (the pytest collector): a
    reordered header is still a test set, one with a problem that ``check_csv`` will report.
    """
    data = Path(path).read_bytes()[:_SNIFF_BYTES]
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace"), newline=""))
    try:
        header = next((row for row in reader if row and not is_comment_row(row)), None)
    except csv.Error:
        return False
    if header is None:
        return False
    if len(header) == 1 and ";" in header[0]:
        header = header[0].split(";")  # Excel's ';' CSV: a test set, whose separator check_csv will name
    if method_rows_header(header) is not None:
        return True
    folded = sorted(folded_column(column) for column in header)
    return any(
        folded == sorted(folded_column(c) for c in template.header)
        for template in TEMPLATES.values()
        if not template.by_name
    )


def _build_set(path: Path, parse: CsvParse, name: str | None, data_type: EvalDataType | str | None) -> EvalTestSet:
    assert parse.template is not None
    return EvalTestSet(
        name=name if name is not None else path.stem,
        data_type=EvalDataType(data_type) if data_type is not None else parse.template.default_data_type,
        cases=parse.cases,
        evidence=[path.name],
        preamble=parse.preamble or None,
        # How the file was read travels with the set (into run folders): notes, then what to fix.
        note="; ".join([*parse.notes, *(f"warning: {w}" for w in parse.warnings)]) or None,
    )


def read_csv(
    path: Path | str,
    *,
    name: str | None = None,
    data_type: EvalDataType | str | None = None,
) -> EvalTestSet:
    """Read a test set from ``path``; raise EvalSetReadError listing every problem if it is broken.

    ``name`` defaults to the file stem; ``data_type`` to Conversation for the conversation
    template and SingleTurn for the single-response templates. A comment block before the header
    is kept as ``preamble``. Validation rules (blank fields, duplicate numbers, limits) are not
    applied here: see ``validate_eval_test_set``.
    """
    path = Path(path)
    parse = parse_csv_bytes(path.read_bytes())
    if parse.problems:
        raise EvalSetReadError(path, parse.problems)
    return _build_set(path, parse, name, data_type)


def load_csv(
    path: Path | str,
    *,
    name: str | None = None,
    data_type: EvalDataType | str | None = None,
    profile: str | RuleSet | None = None,
) -> tuple[EvalTestSet | None, list[str]]:
    """Read and validate ``path`` in one pass: the set (``None`` when the header is unknown) and every problem.

    The set is usable only when the problem list is empty; the rows that did parse are validated
    too, so one call lists everything wrong with the file.
    """
    # Without a known header the rows mean nothing to validate: the set is None then.
    found = inspect_csv(path, name=name, data_type=data_type, profile=profile)
    return found.test_set, found.problems


@dataclass(frozen=True)
class CsvCheck:
    """Everything reading and validating a CSV file found: problems (it will not import), warnings, notes.

    ``read_problems`` are the reading problems alone (the set cannot be used as read); ``problems``
    adds the validation problems of the rows that did parse.
    """

    test_set: EvalTestSet | None
    problems: list[str]
    warnings: list[str]
    notes: list[str]
    read_problems: list[str]


def inspect_csv(
    path: Path | str,
    *,
    name: str | None = None,
    data_type: EvalDataType | str | None = None,
    profile: str | RuleSet | None = None,
) -> CsvCheck:
    """Read and validate ``path`` once, keeping the warnings and notes beside the problems."""
    path = Path(path)
    parse = parse_csv_bytes(path.read_bytes())
    if parse.template is None:
        return CsvCheck(None, parse.problems, parse.warnings, parse.notes, parse.problems)
    test_set = _build_set(path, parse, name, data_type)
    problems = parse.problems + validate_eval_test_set(test_set, profile)
    return CsvCheck(test_set, problems, parse.warnings, parse.notes, parse.problems)


def check_csv(
    path: Path | str, *, data_type: EvalDataType | str | None = None, profile: str | RuleSet | None = None
) -> list[str]:
    """Return every reading and validation problem of a CSV file; empty means it imports cleanly.

    ``profile`` names the rule set (default ``copilot-studio``, see ``rule_sets``).
    """
    return load_csv(path, data_type=data_type, profile=profile)[1]


__all__ = [
    "CsvCheck",
    "CsvParse",
    "check_csv",
    "csv_records",
    "inspect_csv",
    "is_comment_row",
    "load_csv",
    "looks_like_test_set",
    "parse_csv_bytes",
    "read_csv",
]
