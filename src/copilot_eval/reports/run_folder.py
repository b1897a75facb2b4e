"""A run folder on disk: ``run.json`` with portable evidence paths, read back wherever the folder went.

Evidence paths are stored relative to the run folder, so a folder that was moved, zipped or
uploaded as a CI artifact still opens. Runs written before ``schemaVersion`` existed hold
absolute paths; readers accept them, and when such a path no longer exists they look for the file
of the same name in the folder's ``evidence/`` directory (``resolve_evidence``, the one rule).

Layouts: 1 made evidence paths relative and kept the test set (``test-set.json``); 2 keeps a
limitation's standing and what confirmed it in fields of their own (``limitationStanding``,
``limitationConfirmedBy``) instead of words in ``runtimeLimitation``, and states ``gradedCases``
beside ``generalQualityPercent``. Older layouts are read into today's fields
(``evalsets.run_layouts``). A run the platform made (``platform_runs``) adds optional fields
within layout 2 (``platformRun``, a case's ``caseId``, a grade's ``errorReason`` and ``data``),
and so does a run of a prompt file (a case's ``caseKey`` and ``ghModelsPassed``, a grade's
``ghModels``; the set's ``promptFile`` and each case's ``prompt`` in ``test-set.json``), and the
time by phase read from the runtime's trace (a case's ``phases``, the run's ``phaseMedians``);
nothing in them changes what the other fields mean. 3 adds a status, ``not_run`` (a case never
played: a run budget was reached first; counted in ``notRun``, neither failed nor errored), what
the run spent (``usage``: the agent's sessions and the judges apart, the budget that stopped it)
and what each case's session spent (``tokens``, ``premiumRequests``, ``aiCredits``); a reader of
layout 2 would not know the status. Within layout 3, ``draftCases`` (optional) counts the cases
a ``generate`` sidecar still marks as drafts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.bounded_json import load_json_file
from copilot_eval.evalsets.errors import EvalSetReadError
from copilot_eval.evalsets.json_io import read_run_json, read_test_set_json
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.run_model import EvalRun
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.safe_paths import OutsideFolder, inside_folder, path_component
from copilot_eval.version import __version__

RUN_SCHEMA_VERSION = 3
"""The run.json layout this version writes (see the module docstring); readers accept every older one."""

RUN_JSON = LAYOUT.run_json
"""The run record; written last, so its presence means the folder is complete."""

RESULTS_CSV = LAYOUT.results_csv
"""The results in the column layout of Copilot Studio's export."""

TEST_SET_JSON = LAYOUT.test_set_json
"""The copy of the test set kept in a run folder, so a report can show questions and references."""


def folder_relative(path: str | None, folder: Path) -> str | None:
    """A path as a run folder stores it: relative to ``folder`` when inside it, else as it is (the one rule)."""
    # An in-memory path is what ``save`` returned: absolute, or relative to the working directory
    # (``--out run1`` gives ``run1/evidence/...``). Inside the folder it is stored relative to it;
    # anything else (a file elsewhere, a bare export name, a path already relative to the folder
    # from another working directory) is kept as it is.
    if not path:
        return path
    try:
        return Path(path).resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return path


def portable_run(run: EvalRun, folder: Path) -> EvalRun:
    """``run`` stamped with the schema version, its evidence paths made relative to ``folder``."""
    results = None
    if run.results is not None:
        results = [
            result.model_copy(
                update={
                    "case_key": result.key,  # every case named for golden files and the history, whatever wrote it
                    "evidence_path": folder_relative(result.evidence_path, folder),
                    "workspace": result.workspace.model_copy(
                        update={"patch_path": folder_relative(result.workspace.patch_path, folder)}
                    )
                    if result.workspace is not None
                    else None,
                    "grades": [
                        g.model_copy(update={"evidence_path": folder_relative(g.evidence_path, folder)})
                        for g in result.grades
                    ],
                }
            )
            for result in run.results
        ]
    return run.model_copy(
        update={
            "schema_version": RUN_SCHEMA_VERSION,
            "copilot_eval_version": __version__,
            "results": results,
            "evidence": [folder_relative(item, folder) or item for item in run.evidence],
        }
    )


def resolve_evidence(folder: Path, stored: str | None) -> Path | None:
    """The file a stored evidence path names, or None when it is gone or outside: the one rule every reader uses.

    A relative path is relative to the run folder (schemaVersion 1 on), an absolute one (older
    runs) is taken when it lies in the folder; when that file is not there, the file of the same
    name in the folder's ``evidence/`` directory is it (an old run folder that was moved, or a path
    of the working directory the run was started from). Nothing outside the folder is followed
    (``safe_paths.inside_folder``: absolute paths elsewhere, ``..``, links out): a run folder from
    elsewhere is read, not trusted; ``evidence_refusal`` says why such a path found nothing.
    """
    if not stored:
        return None
    try:
        path = inside_folder(folder, stored)
        if path.is_file():
            return path
    except OutsideFolder:
        pass
    try:
        moved = inside_folder(folder, f"evidence/{path_component(Path(stored).name, fallback='-')}")
    except OutsideFolder:
        return None
    return moved if moved.is_file() else None


def evidence_refusal(folder: Path, stored: str | None) -> str | None:
    """Why a stored evidence path was not followed (it leads outside the folder), or None when it was not refused."""
    if not stored or resolve_evidence(folder, stored) is not None:
        return None
    try:
        inside_folder(folder, stored)
    except OutsideFolder as refused:
        return f"evidence path {refused}"
    return None


@dataclass(frozen=True)
class RunFolder:
    """A run read from its folder: the run, the test set when it was kept, and the folder itself."""

    folder: Path
    run: EvalRun
    test_set: EvalTestSet | None

    def __str__(self) -> str:
        """The folder's path, as messages name it (a folder the finisher holds before its run.json is written)."""
        return str(self.folder)

    def evidence_file(self, stored: str | None) -> Path | None:
        """The evidence file behind a stored path (see :func:`resolve_evidence`)."""
        return resolve_evidence(self.folder, stored)

    def evidence_refusal(self, stored: str | None) -> str | None:
        """Why a stored evidence path was refused (see :func:`evidence_refusal`), or None."""
        return evidence_refusal(self.folder, stored)

    def link(self, stored: str | None) -> str | None:
        """A link to the evidence file relative to the folder (for reports written into it)."""
        found = self.evidence_file(stored)
        if found is None:
            return None
        try:
            return found.resolve().relative_to(self.folder.resolve()).as_posix()
        except ValueError:
            return found.resolve().as_uri()

    def load_evidence(self, stored: str | None) -> dict[str, Any] | None:
        """The evidence JSON as a plain dict (any target's shape), or None when missing or unreadable."""
        found = self.evidence_file(stored)
        if found is None:
            return None
        try:
            data = load_json_file(found)
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None


def _stated_version(path: Path) -> Any:
    """The ``schemaVersion`` a run.json states, read without the model (None when it cannot be read)."""
    try:
        data = load_json_file(path)
    except (OSError, ValueError):
        return None
    return data.get("schemaVersion") if isinstance(data, dict) else None


def _refuse_newer(path: Path, version: Any) -> None:
    """Raise EvalSetReadError saying to upgrade when ``version`` is newer than this copilot-eval reads."""
    if isinstance(version, int) and not isinstance(version, bool) and version > RUN_SCHEMA_VERSION:
        error = EvalSetReadError(path, [f"schemaVersion {version} is newer than this copilot-eval reads"])
        error.args = (
            f"{path} has schemaVersion {version}; this copilot-eval reads up to {RUN_SCHEMA_VERSION}: "
            f"upgrade copilot-eval (this is {__version__}; `copilot-eval --version` after the upgrade says which)",
        )
        raise error


def read_run_folder(folder: Path | str | RunFolder) -> RunFolder:
    """Read ``folder/run.json`` (and the kept test set); raise EvalSetReadError naming the file and problem.

    A ``RunFolder`` already read (the finisher's, before its run.json is written) is returned as it is.
    """
    if isinstance(folder, RunFolder):
        return folder
    folder = Path(folder)
    if not folder.exists():  # a mistyped or never-written folder: not found, not "no run.json here"
        raise EvalSetReadError(
            folder, [f"not found: {folder} does not exist; pass the folder `copilot-eval run --out` wrote"]
        )
    path = folder / RUN_JSON if folder.is_dir() else folder
    folder = path.parent
    if not path.is_file():
        raise EvalSetReadError(path, [f"no {RUN_JSON} here; pass the folder `copilot-eval run --out` wrote"])
    try:
        run = read_run_json(path)
    except EvalSetReadError:
        # The version decides first: a newer layout may hold fields this version refuses, and
        # "upgrade copilot-eval" is the fix, not the validation errors those fields cause.
        _refuse_newer(path, _stated_version(path))
        raise
    _refuse_newer(path, run.schema_version)
    test_set = None
    if (folder / TEST_SET_JSON).is_file():
        test_set = read_test_set_json(folder / TEST_SET_JSON)
    return RunFolder(folder=folder, run=run, test_set=test_set)


__all__ = [
    "RESULTS_CSV",
    "RUN_JSON",
    "RUN_SCHEMA_VERSION",
    "TEST_SET_JSON",
    "RunFolder",
    "evidence_refusal",
    "folder_relative",
    "portable_run",
    "read_run_folder",
    "resolve_evidence",
]
