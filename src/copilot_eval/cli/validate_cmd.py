"""`copilot-eval validate [--profile seed|copilot-studio] [--var NAME=VALUE] FILE...`: every problem of test-set files.

Without ``--profile`` the rule set is ``copilot-studio``, today's templates (a file with or without
their comment block); ``--profile seed`` applies the seed importer's rules instead. A prompt file
(``*.prompt.yml``, or YAML with ``messages``) is checked as gh-models reads it, with the values of
``--var`` for its placeholders, and its notes (ignored keys, what a run does not apply) are shown.

Exit codes (``copilot_eval.exit_codes``): 0 when every file imports cleanly; 2 unusable input: a file
has problems, or a usage error (a missing file, for instance, which Typer reports before the command runs).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.options import JsonOption, ProfileOption, VarOption
from copilot_eval.evalsets import DEFAULT_RULE_SET, RULE_SETS, check_json, inspect_csv, load_prompt_file
from copilot_eval.evalsets.prompt_cases import parse_variables
from copilot_eval.evalsets.prompt_runtime import runtime_model_name, unapplied_parameters
from copilot_eval.evalsets.set_kind import SetKind, kind_of_set, unknown_kind_message
from copilot_eval.evalsets.yaml_sets import check_yaml
from copilot_eval.untrusted.terminal import terminal_text


@dataclass
class _Report:
    path: Path
    problems: list[str]
    notes: list[str] = field(default_factory=list)
    cases: int | None = None  # a prompt file's: how many cases a run plays
    # What reading a CSV noticed that does not stop the import (mis-decoded text, ignored columns).
    warnings: list[str] = field(default_factory=list)

    @property
    def prompt_file(self) -> bool:
        return self.cases is not None


def _report(path: Path, profile: str | None, variables: dict[str, str]) -> _Report:
    kind = kind_of_set(path)
    if kind in (SetKind.PROMPT, SetKind.PROMPT_MARKDOWN):
        return _prompt_report(path, variables)
    if kind is SetKind.JSON:
        return _Report(path, check_json(path, profile=profile))
    if kind is SetKind.YAML:
        return _Report(path, check_yaml(path, profile=profile))
    if kind is not SetKind.CSV:
        files = [k for k in SetKind if k is not SetKind.PROMPT_FOLDER]  # FILE... takes files, not folders
        return _Report(path, [unknown_kind_message(path, files)])
    found = inspect_csv(path, profile=profile)
    return _Report(path, found.problems, found.notes, warnings=found.warnings)


def _prompt_report(path: Path, variables: dict[str, str]) -> _Report:
    test_set, problems, notes = load_prompt_file(path, variables=variables)
    record = test_set.prompt_file if test_set is not None else None
    if record is not None:
        if record.model and runtime_model_name(record.model) is None:
            notes.append(
                f"model {record.model!r} has no Copilot runtime equivalent: `copilot-eval run` needs --model NAME "
                "or an agent file with a model"
            )
        if (line := unapplied_parameters(record.model_parameters)) is not None:
            notes.append(line)
        if not record.evaluators and not record.response_format:
            notes.append("no evaluators: `copilot-eval run` needs --grader SPEC to grade the answers")
    # cases is set even when there are problems: it marks the report as a prompt file's.
    return _Report(path, problems, notes, cases=len(test_set.cases) if test_set is not None else 0)


def validate(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Test-set files: *.prompt.yml, *.prompt.md (or YAML with messages) is a prompt file, .json is "
            "read as JSON, other .yaml/.yml as the JSON format in YAML, .csv (or a file whose first row is a "
            "test-set header) as CSV.",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    as_json: JsonOption = False,
    profile: ProfileOption = None,
    var: VarOption = None,
) -> None:
    """Check test-set files: Copilot Studio sets against the importer's rules, prompt files as gh-models reads them."""
    if profile is not None and profile not in RULE_SETS:
        raise typer.BadParameter(f"{profile!r}: expected one of {', '.join(RULE_SETS)}", param_hint="--profile")
    try:
        variables = parse_variables(var)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--var") from None
    rules = profile or DEFAULT_RULE_SET
    reports = [_report(path, rules, variables) for path in files]
    all_clean = all(not report.problems for report in reports)
    if as_json:
        typer.echo(json.dumps(_document(reports, rules, all_clean), indent=2, ensure_ascii=False))
    else:
        for report in reports:
            _print(report, rules)
    if not all_clean:
        bad = [str(report.path) for report in reports if report.problems]
        raise bad_input(f"{len(bad)} of {len(reports)} files would not import: {', '.join(bad)}")


def _document(reports: list[_Report], rules: str, all_clean: bool) -> dict[str, Any]:
    files: list[dict[str, Any]] = []
    for report in reports:
        entry: dict[str, Any] = {"path": str(report.path), "ok": not report.problems, "problems": report.problems}
        entry.update(warnings=report.warnings, notes=report.notes)
        if report.prompt_file:
            entry.update(kind="prompt-file", cases=report.cases)
        files.append(entry)
    return {"ok": all_clean, "profile": rules, "files": files}


def _print(report: _Report, rules: str) -> None:
    count = len(report.problems)
    kind = "prompt file" if report.prompt_file else f"{rules} rules"
    if not count:
        done = (
            f"OK, {report.cases} case{'s' if report.cases != 1 else ''} to run"
            if report.prompt_file
            else "OK, imports cleanly"
        )
        typer.echo(f"{report.path}: {done} ({kind})")
    else:
        typer.echo(f"{report.path}: {count} problem{'s' if count != 1 else ''} ({kind})")
    for problem in report.problems:
        typer.echo(f"  - {terminal_text(problem)}")  # problems quote the file
    # Warnings and notes never fail the check: the file imports; they say what to look at.
    for warning in report.warnings:
        typer.echo(f"  warning: {terminal_text(warning)}")
    for note in report.notes:
        typer.echo(f"  note: {terminal_text(note)}")


def register(app: typer.Typer) -> None:
    """Add the `validate` command to ``app``."""
    app.command("validate")(validate)
