"""`copilot-eval validate [--profile seed|copilot-studio] FILE...`: report every import problem of test-set files.

Without ``--profile`` the rule set is ``copilot-studio``, today's templates (a file with or without
their comment block); ``--profile seed`` applies the seed importer's rules instead.

Exit codes (``copilot_eval.exit_codes``): 0 when every file imports cleanly; 2 unusable input: a file
has problems, or a usage error (a missing file, for instance, which Typer reports before the command runs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input


def _problems_of(path: Path, profile: str | None) -> list[str]:
    # Imported here so that `copilot-eval --help` does not pay for pydantic model building.
    from copilot_eval.evalsets import check_csv, check_json

    if path.suffix.lower() == ".json":
        return check_json(path, profile=profile)
    return check_csv(path, profile=profile)


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
    reports = [(path, _problems_of(path, rules)) for path in files]
    all_clean = all(not problems for _, problems in reports)
    if as_json:
        document = {
            "ok": all_clean,
            "profile": rules,
            "files": [{"path": str(path), "ok": not problems, "problems": problems} for path, problems in reports],
        }
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for path, problems in reports:
            if not problems:
                typer.echo(f"{path}: OK, imports cleanly ({rules} rules)")
                continue
            typer.echo(f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''} ({rules} rules)")
            for problem in problems:
                typer.echo(f"  - {problem}")
    if not all_clean:
        bad = [str(path) for path, problems in reports if problems]
        raise bad_input(f"{len(bad)} of {len(reports)} files would not import: {', '.join(bad)}")


def register(app: typer.Typer) -> None:
    """Add the `validate` command to ``app``."""
    app.command("validate")(validate)
