"""`copilot-eval convert IN OUT`: convert a test set between CSV templates, JSON and prompt files.

The format of each side comes from its suffix (.csv, .json, or .prompt.yml / .yml / .yaml for a
prompt file; an input .yml is a prompt file when it holds ``messages``). A prompt file converts to
and from a Copilot Studio set where the fields map; a field that cannot map refuses the
conversion, naming it, unless ``--drop FIELD`` says to leave it out (``evalsets.prompt_convert``).
Exit codes (``copilot_eval.exit_codes``): 0 when OUT was written; 2 unusable input: IN could not be
read, a field cannot map or OUT could not be written (nothing is written then), or a usage error such
as an unknown suffix or template.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.options import DataTypeOption, ProfileOption, VarOption
from copilot_eval.evalsets import (
    CsvTemplate,
    EvalDataType,
    EvalSetError,
    EvalSetReadError,
    EvalTestSet,
    inspect_csv,
    load_prompt_file,
    read_test_set_json,
    validate_eval_test_set,
    write_csv,
    write_json,
)
from copilot_eval.evalsets.csv_templates import default_template_for, template_named
from copilot_eval.evalsets.prompt_cases import parse_variables
from copilot_eval.evalsets.prompt_convert import copilot_studio_set, prompt_document, write_prompt_file
from copilot_eval.evalsets.rule_sets import rule_set_named
from copilot_eval.evalsets.set_kind import SetKind, kind_by_name, kind_of_set, unknown_kind_message
from copilot_eval.untrusted.terminal import terminal_text

PROMPT = "prompt"
_Made = TypeVar("_Made")


def _format_of(path: Path, option: str) -> str:
    """IN's kind as ``evalsets.set_kind`` tells it (by name and content), OUT's by its name: .csv, .json or prompt."""
    kind = kind_of_set(path) if option == "IN" else kind_by_name(path, writing=True)
    formats = {SetKind.CSV: ".csv", SetKind.JSON: ".json", SetKind.PROMPT: PROMPT}
    if kind is None or kind not in formats:
        message = (
            unknown_kind_message(path, formats)
            if option == "IN"
            else (f"{path}: suffix must be .csv, .json or .prompt.yml, not {path.suffix.lower() or 'none'!r}")
        )
        raise typer.BadParameter(message, param_hint=option)
    return formats[kind]


def _warnings(test_set: EvalTestSet, template: CsvTemplate | None, profile: str | None) -> list[str]:
    warnings = [f"the converted set will not import: {p}" for p in validate_eval_test_set(test_set, profile)]
    if template is None:
        return warnings
    if template.testing_method_column is None and any(c.testing_method for c in test_set.cases):
        warnings.append(f"the {template.name} template has no testing-method column; methods are dropped")
    if template.passing_score_column is None and any(c.passing_score is not None for c in test_set.cases):
        warnings.append(f"the {template.name} template has no passing-score column; the rows' pass marks are dropped")
    numbers = [c.conversation_number for c in test_set.cases]
    if not template.has_numbers and numbers != list(range(1, len(numbers) + 1)):
        warnings.append(f"the {template.name} template has no conversationNumber; rows will read back as 1..n")
    return warnings


def convert(
    source: Annotated[
        Path,
        typer.Argument(metavar="IN", help="Input .csv, .json or .prompt.yml test set.", exists=True, dir_okay=False),
    ],
    target: Annotated[
        Path, typer.Argument(metavar="OUT", help="Output .csv, .json or .prompt.yml file (overwritten).")
    ],
    template: Annotated[
        str | None,
        typer.Option(
            help="CSV template for OUT: conversation, single-response, legacy-single-response or method-rows "
            "(Prompt,Expected response,Test Method Type,Passing Score). Default: the one that loses nothing."
        ),
    ] = None,
    name: Annotated[str | None, typer.Option(help="Test-set name when IN is CSV (default: file stem).")] = None,
    data_type: DataTypeOption = None,
    profile: ProfileOption = None,
    preamble: Annotated[
        bool | None,
        typer.Option(
            "--preamble/--no-preamble",
            help="Write a comment block stating the rule "
            "set's limits before the CSV header (default: when IN had one).",
        ),
    ] = None,
    drop: Annotated[
        list[str] | None,
        typer.Option(
            "--drop",
            metavar="FIELD",
            help="Convert without a field the other format has no place for (system, evaluators, "
            "responseFormat, testingMethod), repeatable; without it such a field refuses the conversion.",
        ),
    ] = None,
    var: VarOption = None,
) -> None:
    """Convert a test set between CSV templates, JSON and prompt files."""
    in_format = _format_of(source, "IN")
    out_format = _format_of(target, "OUT")
    if template is not None and out_format != ".csv":
        raise typer.BadParameter("--template applies only to CSV output", param_hint="--template")
    try:
        chosen = template_named(template) if template is not None else None
        kind = EvalDataType(data_type) if data_type is not None else None
        rule_set_named(profile)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None

    _check_prompt_file_options(in_format, out_format, template, drop, var)
    try:
        test_set = _read(source, in_format, name, kind, drop or [], var)
        if out_format == PROMPT:
            _to_prompt_file(test_set, target, drop or [], source)
            typer.echo(f"wrote {target} ({len(test_set.cases)} cases, prompt file)")
            return
        described = _write_table(test_set, target, out_format, chosen, profile, preamble)
    except EvalSetError as exc:
        raise bad_input(str(exc)) from None
    typer.echo(f"wrote {target} ({len(test_set.cases)} cases, {described})")


def _check_prompt_file_options(
    in_format: str, out_format: str, template: str | None, drop: list[str] | None, var: list[str] | None
) -> None:
    """BadParameter for a conversion of a prompt file into one, or an option that applies only to a prompt file."""
    if PROMPT in (in_format, out_format):
        if in_format == out_format:
            raise typer.BadParameter("IN and OUT are both prompt files: nothing to convert", param_hint="OUT")
        if template is not None and out_format == PROMPT:
            raise typer.BadParameter("--template applies only to CSV output", param_hint="--template")
    elif drop or var:
        raise typer.BadParameter("applies when IN or OUT is a prompt file", param_hint="--drop/--var")


def _read(
    source: Path, in_format: str, name: str | None, kind: EvalDataType | None, drop: list[str], var: list[str] | None
) -> EvalTestSet:
    """The test set at ``source`` in its format, renamed (and typed) as asked; a CSV's warnings and notes printed."""
    if in_format == PROMPT:
        test_set = _from_prompt_file(source, drop, var)
        return test_set.model_copy(update={"name": name}) if name is not None else test_set
    if in_format == ".csv":
        found = inspect_csv(source, name=name, data_type=kind)
        if found.read_problems or found.test_set is None:
            raise EvalSetReadError(source, found.read_problems)
        for line in (*(f"warning: {w}" for w in found.warnings), *(f"note: {n}" for n in found.notes)):
            typer.echo(terminal_text(line), err=True)
        return found.test_set
    test_set = read_test_set_json(source)
    updates = {"name": name, "data_type": kind}
    return test_set.model_copy(update={k: v for k, v in updates.items() if v is not None})


def _write_table(
    test_set: EvalTestSet,
    target: Path,
    out_format: str,
    template: CsvTemplate | None,
    profile: str | None,
    preamble: bool | None,
) -> str:
    """Write ``test_set`` as CSV (in ``template``, else the one that loses nothing) or JSON; what was written."""
    if out_format == ".csv":
        chosen = template or default_template_for(test_set)
        for warning in _warnings(test_set, chosen, profile):
            typer.echo(f"warning: {terminal_text(warning)}", err=True)
        # Our own block, not the input's: it must state the limits of the rules the file is checked against.
        with_block = bool(test_set.preamble) if preamble is None else preamble
        write_csv(test_set, target, template=chosen, preamble=with_block, profile=profile)
        return f"{chosen.name} template"
    for warning in _warnings(test_set, None, profile):
        typer.echo(f"warning: {terminal_text(warning)}", err=True)
    write_json(test_set, target)
    return "JSON"


def _from_prompt_file(source: Path, drop: list[str], var: list[str] | None) -> EvalTestSet:
    """The prompt file at ``source`` as a Copilot Studio set (EvalSetError listing what cannot map)."""
    try:
        variables = parse_variables(var)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--var") from None
    prompt_set, problems, _ = load_prompt_file(source, variables=variables)
    if prompt_set is None:
        raise EvalSetReadError(source, problems)
    return _mapped(lambda: copilot_studio_set(prompt_set, drop=drop, source=source))


def _to_prompt_file(test_set: EvalTestSet, target: Path, drop: list[str], source: Path) -> None:
    """Write ``test_set`` as a prompt file (EvalSetError listing what cannot map; nothing written then)."""
    write_prompt_file(_mapped(lambda: prompt_document(test_set, drop=drop, source=source)), target)


def _mapped(mapping: Callable[[], tuple[_Made, list[str]]]) -> _Made:
    """What a mapping between a prompt file and a Copilot Studio set made, its warnings printed.

    A ValueError without ``problems`` is a wrong --drop; one with them (an EvalSetError) lists what cannot map.
    """
    try:
        made, warnings = mapping()
    except ValueError as exc:
        if not hasattr(exc, "problems"):
            raise typer.BadParameter(str(exc), param_hint="--drop") from None
        raise
    for warning in warnings:
        typer.echo(f"warning: {terminal_text(warning)}", err=True)
    return made


def register(app: typer.Typer) -> None:
    """Add the `convert` command to ``app``."""
    app.command("convert")(convert)
