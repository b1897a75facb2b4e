"""The CSV templates the Copilot Studio importer has accepted, as data.

The importer is positional and picks nothing by name, so a template is just a header plus what
each column means. Reading chooses a template by matching the header, ignoring case and spacing
(people retype headers: a community set's ``Question,Expected response`` is the single-response
template); writing takes one by name and writes its header exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from copilot_eval.evalsets.limits import EVAL_CSV_COLUMNS
from copilot_eval.evalsets.method_rows import METHOD_ROWS_COLUMNS
from copilot_eval.evalsets.model import EvalDataType, EvalTestSet


@dataclass(frozen=True, slots=True)
class CsvTemplate:
    """One import template: its name, its exact header, and the data type it implies."""

    name: str
    header: tuple[str, ...]
    default_data_type: EvalDataType
    # Column positions; None when the template has no such column.
    number_column: int | None
    question_column: int
    response_column: int
    testing_method_column: int | None = None
    passing_score_column: int | None = None
    # Found by column name rather than position (the per-row method dialect, see method_rows).
    by_name: bool = False

    @property
    def has_numbers(self) -> bool:
        """Whether rows carry their own conversationNumber (otherwise they are numbered 1..n)."""
        return self.number_column is not None


CONVERSATION = CsvTemplate(
    name="conversation",
    header=EVAL_CSV_COLUMNS,
    default_data_type=EvalDataType.CONVERSATION,
    number_column=0,
    question_column=1,
    response_column=2,
)

SINGLE_RESPONSE = CsvTemplate(
    name="single-response",
    header=("question", "expectedResponse"),
    default_data_type=EvalDataType.SINGLE_TURN,
    number_column=None,
    question_column=0,
    response_column=1,
)

LEGACY_SINGLE_RESPONSE = CsvTemplate(
    name="legacy-single-response",
    header=("Question", "Expected response", "Testing method"),
    default_data_type=EvalDataType.SINGLE_TURN,
    number_column=None,
    question_column=0,
    response_column=1,
    testing_method_column=2,
)

# Written in this order; read by column name (trimmed), so real files with extra or reordered columns load.
METHOD_ROWS = CsvTemplate(
    name="method-rows",
    header=METHOD_ROWS_COLUMNS,
    default_data_type=EvalDataType.SINGLE_TURN,
    number_column=None,
    question_column=0,
    response_column=1,
    testing_method_column=2,
    passing_score_column=3,
    by_name=True,
)

TEMPLATES: dict[str, CsvTemplate] = {
    template.name: template for template in (CONVERSATION, SINGLE_RESPONSE, LEGACY_SINGLE_RESPONSE, METHOD_ROWS)
}


def template_named(name: str) -> CsvTemplate:
    """Return the template called ``name``, or raise ValueError listing the known names."""
    try:
        return TEMPLATES[name]
    except KeyError:
        known = ", ".join(TEMPLATES)
        raise ValueError(f"unknown CSV template {name!r}; known templates: {known}") from None


def folded_column(name: str) -> str:
    """A column name as it is compared: case, spaces, underscores and hyphens ignored."""
    return "".join(ch for ch in name.casefold() if not ch.isspace() and ch not in "_-")


def _folded(columns: tuple[str, ...] | list[str]) -> list[str]:
    return [folded_column(column) for column in columns]


def template_for_header(header: list[str]) -> CsvTemplate | None:
    """Return the template whose header is ``header`` (case and spacing aside), or None."""
    # The per-row dialect is found by its columns' names (method_rows), not here.
    positional = [t for t in TEMPLATES.values() if not t.by_name]
    for template in positional:
        if tuple(header) == template.header:
            return template
    folded = _folded(header)
    return next((t for t in positional if folded == _folded(t.header)), None)


def describe_header_problem(header: list[str]) -> str:
    """Explain why ``header`` matches no template: reordered columns, a missing column, or neither."""
    shown = ",".join(header)
    folded = _folded(header)
    for template in TEMPLATES.values():
        if not template.by_name and sorted(folded) == sorted(_folded(template.header)):
            return (
                f"header {shown!r} has the {template.name} template's columns in the wrong order; "
                f"the importer is positional and needs {','.join(template.header)!r}"
            )
    short = [
        (template, [c for c in template.header if folded_column(c) not in folded])
        for template in TEMPLATES.values()
        if not template.by_name and folded and set(folded) < set(_folded(template.header))
    ]
    if short:
        template, missing = min(short, key=lambda pair: len(pair[1]))
        names = " and ".join(repr(c) for c in missing)
        return (
            f"header {shown!r} lacks the {template.name} template's {names} column"
            f"{'s' if len(missing) > 1 else ''}; add the column (the template is {','.join(template.header)!r})"
        )
    expected = "; ".join(f"{t.name}: {','.join(t.header)!r}" for t in TEMPLATES.values())
    return f"header {shown!r} matches no known template (expected one of {expected})"


__all__ = [
    "CONVERSATION",
    "LEGACY_SINGLE_RESPONSE",
    "METHOD_ROWS",
    "SINGLE_RESPONSE",
    "TEMPLATES",
    "CsvTemplate",
    "describe_header_problem",
    "folded_column",
    "template_for_header",
    "template_named",
]


def default_template_for(test_set: EvalTestSet) -> CsvTemplate:
    """Pick the template that loses nothing of ``test_set``: the per-row dialect for pass marks, legacy for methods."""
    if any(case.passing_score is not None for case in test_set.cases):
        return METHOD_ROWS
    if any(case.testing_method for case in test_set.cases):
        return LEGACY_SINGLE_RESPONSE
    if test_set.data_type is EvalDataType.SINGLE_TURN:
        return SINGLE_RESPONSE
    return CONVERSATION


__all__ += ["default_template_for"]
