"""`copilot-eval clean`: remove the working directories runs left behind.

Every run without an explicit ``working_directory`` works in a fresh ``copilot-eval-run-*`` folder
of the system's temporary directory (A/B runs: ``copilot-eval-ab-*``), kept after the run so that
assertions and people can read the files the agent wrote. This command removes them; by default
only folders untouched for an hour, so runs still in progress keep theirs.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

PREFIXES = ("copilot-eval-run-", "copilot-eval-ab-")


def _is_ours(path: Path) -> bool:
    """Only folders this tool created in the temporary directory are ever removed."""
    return path.name.startswith(PREFIXES) and path.parent.resolve() == Path(tempfile.gettempdir()).resolve()


def kept_working_directories(older_than_s: float = 0.0) -> list[Path]:
    """The run folders in the temporary directory, untouched for at least ``older_than_s``."""
    now = time.time()
    found = []
    for prefix in PREFIXES:
        for path in Path(tempfile.gettempdir()).glob(f"{prefix}*"):
            try:
                if path.is_dir() and not path.is_symlink() and now - path.stat().st_mtime >= older_than_s:
                    found.append(path)
            except OSError:
                continue
    return sorted(found)


def _size(path: Path) -> int:
    total = 0
    for item in path.rglob("*"):
        try:
            if item.is_file() and not item.is_symlink():
                total += item.stat().st_size
        except OSError:
            continue
    return total


def remove_working_directory(path: str | Path) -> bool:
    """Remove one run folder if it is one of ours; whether it was removed."""
    folder = Path(path)
    if not _is_ours(folder) or not folder.is_dir():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return not folder.exists()


def discard_passing_workdirs(case_results: Iterable[Any], out: Path) -> int:
    """Remove the run folders of passing cases (read from their evidence files); how many."""
    from copilot_eval.reports.run_folder import resolve_evidence  # CLI start-up: pydantic models load on use

    removed = 0
    for case in case_results:
        status = getattr(case.effective_status, "value", case.effective_status)
        if status != "pass" or not case.evidence_path:
            continue
        evidence = resolve_evidence(out, case.evidence_path)
        if evidence is None:
            continue
        try:
            folder = json.loads(evidence.read_text(encoding="utf-8")).get("working_directory")
        except (OSError, ValueError):
            continue
        if folder and remove_working_directory(folder):
            removed += 1
    return removed


def clean(
    older_than: Annotated[
        float,
        typer.Option(
            "--older-than", min=0, help="Only folders untouched for this many minutes (default 60; 0 removes all)."
        ),
    ] = 60,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List what would be removed, remove nothing.")] = False,
) -> None:
    """Remove the working directories runs kept in the temporary directory (copilot-eval-run-*)."""
    folders = kept_working_directories(older_than * 60)
    total = sum(_size(folder) for folder in folders)
    for folder in folders:
        typer.echo(f"{'would remove' if dry_run else 'removing'} {folder}")
        if not dry_run:
            remove_working_directory(folder)
    verb = "would free" if dry_run else "freed"
    typer.echo(f"{len(folders)} working director{'y' if len(folders) == 1 else 'ies'}, {verb} {total / 1e6:.1f} MB")


def register(app: typer.Typer) -> None:
    """Add the `clean` command to ``app``."""
    app.command("clean")(clean)
