"""`copilot-eval convert IN OUT`: convert a test set between CSV templates and JSON.

The format of each side comes from its suffix (.csv or .json). Exit status: 0 when OUT was
written, 1 when IN could not be read or OUT could not be written (nothing is written then), 2 for
usage errors such as an unknown suffix or template.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from copilot_eval.evalsets import CsvTemplate, EvalTestSet

_FORMATS = (".csv", ".json")


def _format_of(path: Path, option: str) -> str:
    suffix = path.suffix.lower()
    if suffix not in _FORMATS:
        raise typer.BadParameter(f"{path}: suffix must be .csv or .json, not {suffix or 'none'!r}", param_hint=option)
    return suffix


def _warnings(test_set: EvalTestSet, template: CsvTemplate | None, profile: str | None) -> list[str]:
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.evalsets import validate_eval_test_set

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
        Path, typer.Argument(metavar="IN", help="Input .csv or .json test set.", exists=True, dir_okay=False)
    ],
    target: Annotated[Path, typer.Argument(metavar="OUT", help="Output .csv or .json file (overwritten).")],
    template: Annotated[
        str | None,
        typer.Option(
            help="CSV template for OUT: conversation, single-response, legacy-single-response or method-rows "
            "(Prompt,Expected response,Test Method Type,Passing Score). Default: the one that loses nothing."
        ),
    ] = None,
    name: Annotated[str | None, typer.Option(help="Test-set name when IN is CSV (default: file stem).")] = None,
    data_type: Annotated[
        str | None, typer.Option("--data-type", help="Conversation or SingleTurn (default: from the template).")
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile", help="Rule set for warnings and the comment block: copilot-studio (default) or seed."
        ),
    ] = None,
    preamble: Annotated[
        bool | None,
        typer.Option(
            "--preamble/--no-preamble",
            help="Write a comment block stating the rule "
            "set's limits before the CSV header (default: when IN had one).",
        ),
    ] = None,
) -> None:
    """Convert a test set between CSV templates and JSON."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.evalsets import (
        EvalDataType,
        EvalSetError,
        EvalSetReadError,
        inspect_csv,
        read_test_set_json,
        write_csv,
        write_json,
    )
    from copilot_eval.evalsets.csv_templates import default_template_for, template_named
    from copilot_eval.evalsets.rule_sets import rule_set_named

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

    try:
        if in_format == ".csv":
            found = inspect_csv(source, name=name, data_type=kind)
            if found.read_problems or found.test_set is None:
                raise EvalSetReadError(source, found.read_problems)
            test_set = found.test_set
            for line in (*(f"warning: {w}" for w in found.warnings), *(f"note: {n}" for n in found.notes)):
                typer.echo(line, err=True)
        else:
            test_set = read_test_set_json(source)
            updates = {"name": name, "data_type": kind}
            test_set = test_set.model_copy(update={k: v for k, v in updates.items() if v is not None})
        if out_format == ".csv":
            chosen = chosen or default_template_for(test_set)
            for warning in _warnings(test_set, chosen, profile):
                typer.echo(f"warning: {warning}", err=True)
            # Our own block, not the input's: it must state the limits of the rules the file is checked against.
            with_block = bool(test_set.preamble) if preamble is None else preamble
            write_csv(test_set, target, template=chosen, preamble=with_block, profile=profile)
        else:
            for warning in _warnings(test_set, None, profile):
                typer.echo(f"warning: {warning}", err=True)
            write_json(test_set, target)
    except EvalSetError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(code=1) from None
    described = f"{chosen.name} template" if out_format == ".csv" and chosen else "JSON"
    typer.echo(f"wrote {target} ({len(test_set.cases)} cases, {described})")


def register(app: typer.Typer) -> None:
    """Add the `convert` command to ``app``."""
    app.command("convert")(convert)
