"""`copilot-eval clean`: remove the working directories finished runs left behind.

Which folders are run folders, and which are still in use, is decided in ``copilot_eval.workdirs``;
this command lists, removes and says what it kept. By default only folders untouched for an hour.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.workdirs import PREFIXES, kept_working_directories, remove_working_directory, why_kept


def _size(path: Path) -> int:
    total = 0
    for item in path.rglob("*"):
        try:
            if item.is_file() and not item.is_symlink():
                total += item.stat().st_size
        except OSError:
            continue
    return total


def clean(
    older_than: Annotated[
        float,
        typer.Option(
            "--older-than",
            min=0,
            metavar="MINUTES",
            help="Only folders untouched for this many minutes (default 60; 0: every finished run's).",
        ),
    ] = 60,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List what would be removed, remove nothing.")] = False,
) -> None:
    """Remove what finished runs kept in the temporary directory (copilot-eval-run-*, -ab-*, -quickstart-*)."""
    found = kept_working_directories(older_than * 60)
    kept = {folder: why for folder in found if (why := why_kept(folder)) is not None}
    folders = [folder for folder in found if folder not in kept]
    total = sum(_size(folder) for folder in folders)
    for folder in folders:
        typer.echo(f"{'would remove' if dry_run else 'removing'} {folder}")
        if not dry_run:
            remove_working_directory(folder)
    verb = "would free" if dry_run else "freed"
    typer.echo(f"{len(folders)} working director{'y' if len(folders) == 1 else 'ies'}, {verb} {total / 1e6:.1f} MB")
    in_use = [folder for folder, why in kept.items() if why.startswith("in use")]
    if in_use:
        typer.echo(f"kept {len(in_use)} of runs still going:")
        for folder in in_use:
            typer.echo(f"  {folder} ({kept[folder]})")
    others = len(kept) - len(in_use)
    if others:
        typer.echo(f"kept {others} of other users")


def register(app: typer.Typer) -> None:
    """Add the `clean` command to ``app``."""
    app.command("clean")(clean)


__all__ = ["PREFIXES", "clean", "register"]
