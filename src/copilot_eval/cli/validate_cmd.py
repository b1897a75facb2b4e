"""`copilot-eval validate FILE...`: report every import problem of test-set files.

Exit status: 0 when every file imports cleanly, 1 when any file has problems, 2 for usage errors
(a missing file, for instance, which Typer reports before the command runs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def _problems_of(path: Path) -> list[str]:
    # Imported here so that `copilot-eval --help` does not pay for pydantic model building.
    from copilot_eval.evalsets import check_csv, check_json

    return check_json(path) if path.suffix.lower() == ".json" else check_csv(path)


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
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON document on stdout instead of text.")
    ] = False,
) -> None:
    """Check test-set files against the Copilot Studio importer's rules."""
    reports = [(path, _problems_of(path)) for path in files]
    all_clean = all(not problems for _, problems in reports)
    if as_json:
        document = {
            "ok": all_clean,
            "files": [
                {"path": str(path), "ok": not problems, "problems": problems}
                for path, problems in reports
            ],
        }
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for path, problems in reports:
            if not problems:
                typer.echo(f"{path}: OK, imports cleanly")
                continue
            typer.echo(f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
            for problem in problems:
                typer.echo(f"  - {problem}")
    if not all_clean:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add the `validate` command to ``app``."""
    app.command("validate")(validate)
