"""Fixtures: where a workspace comes from, checked before a run, staged once, copied fresh per play.

A fixture is a folder, an archive, or a git repository at a commit (``CaseWorkspace``). A run stages
each distinct fixture once (``FixtureStage``): a folder is used where it is, an archive is unpacked
and a repository's tree at the commit is exported (``git archive``, no ``.git``) into a temporary
``copilot-eval-fixture-*`` folder removed when the run closes. Each play then gets a fresh copy in its
own working directory (``copy_fixture``), so repeats and concurrent plays never share one. A
symbolic link in a folder fixture that points outside it is refused, like an archive's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from copilot_eval.evalsets.workspace_model import CaseWorkspace
from copilot_eval.workspace.archives import ArchiveError, check_archive, extract_archive, is_archive
from copilot_eval.workspace.changes import Manifest, manifest

GIT_TIME_LIMIT_S = 300.0


class FixtureError(ValueError):
    """A fixture that cannot be used: missing, unreadable, unsafe; the message names it and how to fix it."""


def kind_of(spec: CaseWorkspace) -> str:
    """``git``, ``archive`` or ``folder``: how the fixture is read."""
    if spec.commit is not None or spec.source.endswith(".git") or "://" in spec.source:
        return "git"
    return "archive" if is_archive(spec.source) else "folder"


def resolved(spec: CaseWorkspace, base: Path | None) -> CaseWorkspace:
    """``spec`` with a relative local source made absolute against ``base`` (the test set's folder)."""
    if "://" in spec.source or base is None or Path(spec.source).is_absolute():
        return spec
    return spec.model_copy(update={"source": str((base / spec.source).resolve())})


def fixture_problem(spec: CaseWorkspace) -> str | None:
    """Why the fixture cannot be used, said before anything plays; ``None`` when it can."""
    kind, source = kind_of(spec), Path(spec.source)
    if kind == "archive":
        try:
            check_archive(source)
        except ArchiveError as exc:
            return str(exc)
        return None
    if kind == "git":
        if "://" in spec.source:
            return None  # checked when it is fetched: the network is not touched before the run
        if not source.is_dir():
            return f"{source}: git repository not found"
        if spec.commit is None:
            return None
        probe = _git(["rev-parse", "--verify", "--quiet", f"{spec.commit}^{{commit}}"], source)
        return None if probe.returncode == 0 else f"{source}: no commit {spec.commit!r} in this repository"
    if not source.exists():
        return f"{source}: fixture folder not found"
    if not source.is_dir():
        return f"{source}: not a folder, nor an archive (.zip, .tar.gz, .tgz, .tar)"
    return _outside_link(source)


def _outside_link(root: Path) -> str | None:
    # Plain strings and os.path: this walks every file of the fixture once per run.
    top = os.path.realpath(root)
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                target = os.path.realpath(path)
                if target != top and not target.startswith(top + os.sep):
                    return f"{path}: a symbolic link to {os.readlink(path)!r}, outside the fixture; refused"
    return None


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, timeout=GIT_TIME_LIMIT_S, check=False, stdin=subprocess.DEVNULL
    )


class FixtureStage:
    """The fixtures of one run, each staged once; ``close`` removes what was unpacked or exported."""

    def __init__(self) -> None:
        self._staged: dict[tuple[str, str | None], Path] = {}
        self._made: list[Path] = []
        self._manifests: dict[Path, Manifest] = {}

    def manifest_of(self, staged: Path) -> Manifest:
        """The manifest of a staged fixture, taken once: a fresh copy with no setup has the same one."""
        if staged not in self._manifests:
            self._manifests[staged] = manifest(staged)
        return self._manifests[staged]

    def stage(self, spec: CaseWorkspace) -> Path:
        """The folder holding the fixture's files (staged on first use); FixtureError when it cannot be."""
        key = (spec.source, spec.commit)
        if key in self._staged:
            return self._staged[key]
        kind = kind_of(spec)
        if kind == "folder":
            problem = fixture_problem(spec)
            if problem is not None:
                raise FixtureError(problem)
            folder = Path(spec.source)
        else:
            folder = Path(tempfile.mkdtemp(prefix="copilot-eval-fixture-"))
            self._made.append(folder)
            if kind == "archive":
                try:
                    extract_archive(spec.source, folder)
                except ArchiveError as exc:
                    raise FixtureError(str(exc)) from None
            else:
                self._export_git(spec, folder)
        self._staged[key] = folder
        return folder

    def _export_git(self, spec: CaseWorkspace, folder: Path) -> None:
        repo = Path(spec.source)
        if "://" in spec.source:
            repo = folder.with_name(folder.name + "-clone")
            self._made.append(repo)
            cloned = _git(["clone", "--quiet", "--no-checkout", spec.source, str(repo)], folder.parent)
            if cloned.returncode != 0:
                raise FixtureError(f"{spec.source}: git clone failed: {cloned.stderr.decode(errors='replace').strip()}")
        tar = folder.with_name(folder.name + ".tar")
        self._made.append(tar)
        made = _git(["archive", "--format=tar", "-o", str(tar), spec.commit or "HEAD"], repo)
        if made.returncode != 0:
            why = made.stderr.decode(errors="replace").strip()
            raise FixtureError(f"{spec.source}: cannot export commit {spec.commit or 'HEAD'}: {why}")
        try:
            extract_archive(tar, folder)
        except ArchiveError as exc:
            raise FixtureError(str(exc)) from None

    def close(self) -> None:
        """Remove what this stage unpacked or exported (folder fixtures are the user's and stay)."""
        for path in self._made:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        self._made.clear()
        self._staged.clear()
        self._manifests.clear()


def copy_fixture(staged: Path, directory: Path) -> None:
    """Copy the staged fixture's files into the (empty) working directory ``directory``, links as links."""
    shutil.copytree(staged, directory, symlinks=True, dirs_exist_ok=True)


__all__ = ["FixtureError", "FixtureStage", "copy_fixture", "fixture_problem", "kind_of", "resolved"]
