"""`copilot-eval validate [--profile seed|copilot-studio] FILE...`: report every import problem of test-set files.

Without ``--profile`` the rule set is ``copilot-studio``, today's templates (a file with or without
their comment block); ``--profile seed`` applies the seed importer's rules instead.

Exit status: 0 when every file imports cleanly, 1 when any file has problems, 2 for usage errors
(a missing file, for instance, which Typer reports before the command runs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def _check(path: Path, profile: str | None) -> tuple[list[str], list[str], list[str]]:
    """(problems, warnings, notes) of one file; only problems make it fail to import."""
    # Imported here so that `copilot-eval --help` does not pay for pydantic model building.
    from copilot_eval.evalsets import check_json, inspect_csv

    if path.suffix.lower() == ".json":
        return check_json(path, profile=profile), [], []
    found = inspect_csv(path, profile=profile)
    return found.problems, found.warnings, found.notes


def validate(
    files: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Test-set files: .json is read as JSON, anything else as CSV.",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout instead of text.")] = False,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="Rule set: copilot-studio (today's templates, the default) or seed "
            "(the earlier importer: unique numbers, at most 6 pairs, references required).",
        ),
    ] = None,
) -> None:
    """Check test-set files against the Copilot Studio importer's rules (one rule set, named)."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.evalsets import DEFAULT_RULE_SET, RULE_SETS

    if profile is not None and profile not in RULE_SETS:
        raise typer.BadParameter(f"{profile!r}: expected one of {', '.join(RULE_SETS)}", param_hint="--profile")
    rules = profile or DEFAULT_RULE_SET
    reports = [(path, *_check(path, rules)) for path in files]
    all_clean = all(not problems for _, problems, _, _ in reports)
    if as_json:
        document = {
            "ok": all_clean,
            "profile": rules,
            "files": [
                {"path": str(path), "ok": not problems, "problems": problems, "warnings": warnings, "notes": notes}
                for path, problems, warnings, notes in reports
            ],
        }
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for path, problems, warnings, notes in reports:
            if not problems:
                typer.echo(f"{path}: OK, imports cleanly ({rules} rules)")
            else:
                typer.echo(f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''} ({rules} rules)")
            for problem in problems:
                typer.echo(f"  - {problem}")
            # Warnings and notes never fail the check: the file imports; they say what to look at.
            for warning in warnings:
                typer.echo(f"  warning: {warning}")
            for note in notes:
                typer.echo(f"  note: {note}")
    if not all_clean:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add the `validate` command to ``app``."""
    app.command("validate")(validate)
