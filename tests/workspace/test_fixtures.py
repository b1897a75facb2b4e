"""Fixtures are checked before a run, staged once and copied fresh into each play's own working directory."""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from copilot_eval.evalsets import CaseWorkspace
from copilot_eval.workspace import FixtureError, FixtureStage, fixture_problem, prepare_workspace


def repo(root: Path) -> Path:
    (root / "tests").mkdir(parents=True)
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "tests" / "test_calc.py").write_text("def test_add():\n    assert True\n")
    return root


def test_each_play_gets_its_own_fresh_copy(tmp_path: Path) -> None:
    fixture = repo(tmp_path / "repo")
    spec = CaseWorkspace(source=str(fixture))
    first = prepare_workspace(spec, fixture)
    second = prepare_workspace(spec, fixture)
    assert first.directory != second.directory
    assert first.directory.name.startswith("copilot-eval-run-")
    (first.directory / "calc.py").write_text("changed\n")
    (first.directory / "new.txt").write_text("new\n")
    assert (second.directory / "calc.py").read_text().startswith("def add"), "plays never share a workspace"
    assert not (second.directory / "new.txt").exists()
    assert (fixture / "calc.py").read_text().startswith("def add"), "the fixture itself is never touched"
    assert sorted(first.before) == ["calc.py", "tests/test_calc.py"]


def test_setup_commands_run_in_order_before_the_agent_and_their_output_is_kept(tmp_path: Path) -> None:
    fixture = repo(tmp_path / "repo")
    spec = CaseWorkspace(source=str(fixture), setup=["echo one > made.txt", "echo two", "exit 3", "echo never"])
    prepared = prepare_workspace(spec, fixture)
    assert [c.command for c in prepared.setup] == ["echo one > made.txt", "echo two", "exit 3"], "stops at a failure"
    assert prepared.setup[1].output == "two\n"
    assert prepared.setup_problem == "setup command 'exit 3' failed: exit code 3"
    assert "made.txt" in prepared.before, "the agent's changes are measured from after the setup"


def test_missing_and_unsafe_folder_fixtures_are_named(tmp_path: Path) -> None:
    assert "fixture folder not found" in (fixture_problem(CaseWorkspace(source=str(tmp_path / "nope"))) or "")
    fixture = repo(tmp_path / "repo")
    os.symlink("/etc/hostname", fixture / "leak")
    problem = fixture_problem(CaseWorkspace(source=str(fixture)))
    assert problem is not None and "leak" in problem and "outside the fixture" in problem
    with pytest.raises(FixtureError, match="outside the fixture"):
        FixtureStage().stage(CaseWorkspace(source=str(fixture)))


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t"}
    env["GIT_COMMITTER_EMAIL"] = "t@x"
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_a_git_repository_at_a_commit_is_its_tree_then_without_git(tmp_path: Path) -> None:
    source = repo(tmp_path / "repo")
    _git(source, "init", "-q")
    _git(source, "add", ".")
    _git(source, "commit", "-qm", "first")
    first = _git(source, "rev-parse", "HEAD")
    (source / "calc.py").write_text("later\n")
    _git(source, "commit", "-qam", "second")
    stage = FixtureStage()
    staged = stage.stage(CaseWorkspace(source=str(source), commit=first))
    assert (staged / "calc.py").read_text().startswith("def add"), "the tree at the named commit"
    assert not (staged / ".git").exists()
    assert stage.stage(CaseWorkspace(source=str(source), commit=first)) == staged, "staged once per run"
    problem = fixture_problem(CaseWorkspace(source=str(source), commit="no-such-ref"))
    assert problem is not None and "no commit 'no-such-ref'" in problem
    stage.close()
    assert not staged.exists(), "what the run exported is removed when it closes"


def test_an_archive_fixture_is_unpacked_once_and_removed_at_the_end(tmp_path: Path) -> None:
    source = repo(tmp_path / "repo")
    archive = tmp_path / "repo.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(source, arcname=".")
    stage = FixtureStage()
    staged = stage.stage(CaseWorkspace(source=str(archive)))
    assert (staged / "tests" / "test_calc.py").is_file()
    stage.close()
    assert not staged.exists()
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"no zip")
    with pytest.raises(FixtureError, match="not a readable archive"):
        FixtureStage().stage(CaseWorkspace(source=str(broken)))
