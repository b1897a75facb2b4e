"""Write a test set in one of the Copilot Studio CSV templates.

Every field is quoted: hand-made sets break most often on an unquoted comma, and quoting all of
them costs nothing. Text is written exactly as held (leading/trailing whitespace, ``\\r`` and
newlines inside fields included), so writing then reading gives the same set back.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.evalsets.csv_templates import CsvTemplate, template_named
from copilot_eval.evalsets.errors import EvalSetWriteError
from copilot_eval.evalsets.model import EvalTestCase, EvalTestSet
from copilot_eval.evalsets.preamble import preamble_lines
from copilot_eval.evalsets.rule_sets import RuleSet


def _row(case: EvalTestCase, template: CsvTemplate) -> list[str]:
    row = [""] * len(template.header)
    if template.number_column is not None:
        row[template.number_column] = str(case.conversation_number)
    row[template.question_column] = case.question
    row[template.response_column] = case.response
    if template.testing_method_column is not None:
        row[template.testing_method_column] = case.testing_method or ""
    if template.passing_score_column is not None and case.passing_score is not None:
        row[template.passing_score_column] = f"{case.passing_score:g}"
    return row


def _unencodable(test_set: EvalTestSet) -> list[str]:
    # Lone surrogates (e.g. from a bad decode upstream) have no UTF-8 form; name them up front
    # rather than failing halfway through the file.
    problems = []
    for position, case in enumerate(test_set.cases, start=1):
        for field_name in ("question", "response", "testing_method"):
            value = getattr(case, field_name)
            if value is None:
                continue
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                problems.append(
                    f"case {position} (conversationNumber {case.conversation_number}), "
                    f"{field_name}: character {exc.start + 1} is a lone surrogate "
                    f"({value[exc.start]!r}) that UTF-8 cannot encode"
                )
    return problems


def _comment_lines(
    test_set: EvalTestSet, template: CsvTemplate, preamble: bool | Sequence[str] | str, profile: str | RuleSet | None
) -> list[str]:
    if preamble == "keep":
        return list(test_set.preamble or [])
    if preamble is True:
        return preamble_lines(template, profile)
    if not preamble:
        return []
    lines = list(preamble)
    bad = [line for line in lines if not line.lstrip().startswith("#")]
    if bad:
        raise EvalSetWriteError(None, [f"preamble line {line!r} does not start with '#'" for line in bad])
    return lines


def csv_text(
    test_set: EvalTestSet,
    *,
    template: str | CsvTemplate = "conversation",
    preamble: bool | Sequence[str] | str = False,
    profile: str | RuleSet | None = None,
) -> str:
    """Return ``test_set`` as CSV text in ``template`` (header from the template, CRLF lines).

    ``preamble``: ``False`` no comment block; ``True`` our own block stating the limits of rule
    set ``profile``; ``"keep"`` the block the set was read with; or the lines themselves.
    """
    chosen = template if isinstance(template, CsvTemplate) else template_named(template)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    for line in _comment_lines(test_set, chosen, preamble, profile):
        writer.writerow([line])
    writer.writerow(chosen.header)
    for case in test_set.cases:
        writer.writerow(_row(case, chosen))
    return buffer.getvalue()


def write_csv(
    test_set: EvalTestSet,
    path: Path | str,
    *,
    template: str | CsvTemplate = "conversation",
    bom: bool = False,
    preamble: bool | Sequence[str] | str = False,
    profile: str | RuleSet | None = None,
) -> None:
    """Write ``test_set`` to ``path`` in ``template``; nothing is written if any text cannot be.

    Single-response templates carry no conversationNumber (reading numbers rows 1..n) and only
    the legacy template keeps ``testing_method``. ``bom=True`` prefixes a UTF-8 BOM for Excel.
    ``preamble`` and ``profile`` choose the comment block, as in ``csv_text``.
    """
    path = Path(path)
    problems = _unencodable(test_set)
    if problems:
        raise EvalSetWriteError(path, problems)
    try:
        data = csv_text(test_set, template=template, preamble=preamble, profile=profile).encode("utf-8")
    except EvalSetWriteError as exc:
        raise EvalSetWriteError(path, exc.problems) from None
    write_bytes_atomically(path, (b"\xef\xbb\xbf" if bom else b"") + data)


__all__ = ["csv_text", "write_csv"]
