"""Run folders into the history: after every command that writes one, and ``copilot-eval history ingest RUN_DIR...``.

After a run the history is a by-product: :func:`record_after_run` never raises, and whatever goes
wrong (a locked or unreachable database, a missing driver, a bad URL) comes back as one warning
naming the database, while the run's own result and exit code stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.evalsets.errors import EvalSetError
from copilot_eval.history.from_folder import record_run_folder
from copilot_eval.history.location import HistoryLocation, resolve_history
from copilot_eval.history.provenance import Provenance, detect_provenance
from copilot_eval.history.records import SOURCE_INGEST, SOURCE_RUN
from copilot_eval.history.run_notices import run_notices
from copilot_eval.history.store import AddOutcome, HistoryStore
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.run_folder import RunFolder, read_run_folder


@dataclass(frozen=True)
class HistoryNote:
    """What recording did, as one line to print; ``ok`` False makes it a warning.

    ``notices`` are what the history knows about each run's verdicts (graders people disagree with,
    verdicts people changed), one tuple per folder recorded, in order: the finisher shows them in
    each run's report.html, which it writes after recording.
    """

    line: str
    ok: bool
    notices: tuple[tuple[str, ...], ...] = field(default_factory=tuple)


def run_folders_under(path: Path) -> list[Path]:
    """``path`` itself when it holds run.json, else every folder below it that does (several surfaces), sorted."""
    if (path / LAYOUT.run_json).is_file() or path.name == LAYOUT.run_json:
        return [path]
    return sorted(found.parent for found in path.rglob(LAYOUT.run_json))


def add_folder(
    store: HistoryStore,
    folder: Path | RunFolder,
    *,
    source: str,
    provenance: Provenance | None,
    report_to_come: bool = False,
) -> AddOutcome:
    """Read one run folder and add its run (EvalSetReadError names a folder that cannot be read)."""
    return store.add(record_run_folder(folder, source=source, provenance=provenance, report_to_come=report_to_come))


def _describe(location: HistoryLocation, outcomes: list[AddOutcome]) -> str:
    ids = ", ".join(str(outcome.run_id) for outcome in outcomes)
    states = sorted({outcome.state for outcome in outcomes})
    return f"history: {' / '.join(states)} as run {ids} in {location.display}"


def record_after_run(
    folders: Sequence[Path | RunFolder],
    *,
    history: str | None = None,
    project_dir: Path | None = None,
    source: str = SOURCE_RUN,
) -> HistoryNote | None:
    """Record run folders being finished in the history (``source``: the command that made them); None when off.

    Never raises. The folders are the finisher's, read or still in memory (their report is written
    after this, with the notices returned).
    """
    display = "the history database"
    try:
        location = resolve_history(history, project_dir=project_dir)
        if location is None:
            return None
        display = location.display
        provenance = detect_provenance(project_dir or Path.cwd())
        with HistoryStore.open(location) as store:
            read = [read_run_folder(folder) for folder in folders]
            outcomes = [
                add_folder(store, folder, source=source, provenance=provenance, report_to_come=True) for folder in read
            ]
            notices = tuple(
                tuple(run_notices(store, outcome.run_id, folder.run))
                for folder, outcome in zip(read, outcomes, strict=True)
            )
        return HistoryNote(_describe(location, outcomes), True, notices)
    except Exception as exc:  # the history is a by-product: nothing it does may fail the run
        reason = str(exc).removeprefix(f"{display}: ")
        return HistoryNote(f"warning: the run was not recorded in the history ({display}): {reason}", False)


def ingest_folders(
    store: HistoryStore, paths: Sequence[Path], *, provenance: Provenance | None = None
) -> list[tuple[Path, AddOutcome | Exception]]:
    """Add every run folder found under ``paths``; a folder that cannot be read is reported, not fatal."""
    done: list[tuple[Path, AddOutcome | Exception]] = []
    for path in paths:
        folders = run_folders_under(path)
        if not folders:
            done.append((path, FileNotFoundError(f"{path}: no run.json here or below it")))
        for folder in folders:
            try:
                done.append((folder, add_folder(store, folder, source=SOURCE_INGEST, provenance=provenance)))
            except EvalSetError as exc:
                done.append((folder, exc))
    return done


__all__ = ["HistoryNote", "add_folder", "ingest_folders", "record_after_run", "run_folders_under"]
