"""`copilot-eval init [DIR]`: write a starter suite that passes at once with `python -m pytest`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.first_steps.examples import ExamplesNotFound
from copilot_eval.first_steps.starter import StarterExists, write_starter


def init(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="Where to write the starter (default: here).")] = Path(),
) -> None:
    """Write a starter suite: agent file, scripted model, a pytest test, a test set, a judge, a CI workflow."""
    try:
        starter = write_starter(folder)
    except (StarterExists, ExamplesNotFound) as exc:
        raise bad_input(str(exc)) from None
    for name in starter.files:
        typer.echo(f"wrote {folder / name}")
    where = "" if folder == Path() else f"cd {folder} && "
    typer.echo(f"next: {where}python -m pytest")
    typer.echo(f"then: {where}copilot-eval run tests.csv --agent agent.yaml")
    if starter.spec_is_placeholder:
        typer.echo(
            "note: this copilot-eval was installed from a local file; set COPILOT_EVAL_PACKAGE in "
            f"{folder / '.github/workflows/copilot-eval.yml'} to what your CI can install (a repository at a tag)"
        )


def register(app: typer.Typer) -> None:
    """Add the `init` command."""
    app.command("init")(init)
