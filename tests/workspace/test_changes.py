"""What the agent changed: added, removed and changed files, and a patch that git can apply."""

from __future__ import annotations

import subprocess
from pathlib import Path

from copilot_eval.evalsets import CaseWorkspace
from copilot_eval.workspace import compare, conclude_workspace, manifest, prepare_workspace, unified_patch


def _fixture(root: Path) -> Path:
    root.mkdir()
    (root / "keep.txt").write_text("same\n")
    (root / "edit.py").write_text("a = 1\nb = 2\n")
    (root / "gone.txt").write_text("bye\n")
    (root / "logo.bin").write_bytes(b"\x00\x01\x02")
    return root


def test_changes_and_patch_from_the_fixture_to_what_the_agent_left(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path / "fixture")
    prepared = prepare_workspace(CaseWorkspace(source=str(fixture)), fixture)
    work = prepared.directory
    (work / "edit.py").write_text("a = 1\nb = 3\n")
    (work / "gone.txt").unlink()
    (work / "added.md").write_text("# new")  # no final newline
    (work / "logo.bin").write_bytes(b"\x00\x09")
    (work / "__pycache__").mkdir()
    (work / "__pycache__" / "edit.cpython-311.pyc").write_bytes(b"\x00")
    (work / ".git").mkdir()
    (work / ".git" / "HEAD").write_text("ref\n")
    outcome = conclude_workspace(prepared, [])
    assert outcome.changes.added == ["added.md"], "cache and version-control folders are not changes"
    assert outcome.changes.removed == ["gone.txt"]
    assert outcome.changes.changed == ["edit.py", "logo.bin"]
    patch = outcome.patch
    assert "-b = 2\n+b = 3\n" in patch
    assert "Binary files a/logo.bin and b/logo.bin differ" in patch and "\x09" not in patch
    assert "deleted file mode" in patch and "+++ /dev/null" in patch
    assert "+# new\n\\ No newline at end of file\n" in patch
    # the patch applies to a copy of the fixture and gives the agent's text files
    check = tmp_path / "check"
    subprocess.run(["cp", "-r", str(fixture), str(check)], check=True)
    text_only = "diff --git" + "diff --git".join(p for p in patch.split("diff --git") if p and "Binary" not in p)
    done = subprocess.run(["git", "apply", "-"], cwd=check, input=text_only, text=True, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert (check / "edit.py").read_text() == "a = 1\nb = 3\n"
    assert not (check / "gone.txt").exists()


def test_no_change_is_an_empty_patch(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path / "fixture")
    assert compare(manifest(fixture), manifest(fixture)).touched == []
    assert unified_patch(fixture, manifest(fixture), fixture, compare(manifest(fixture), manifest(fixture))) == ""


def test_a_file_the_setup_changed_is_named_not_diffed_against_the_fixture(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path / "fixture")
    prepared = prepare_workspace(CaseWorkspace(source=str(fixture), setup=["echo setup >> keep.txt"]), fixture)
    (prepared.directory / "keep.txt").write_text("agent\n")
    outcome = conclude_workspace(prepared, [])
    assert outcome.changes.changed == ["keep.txt"]
    assert "changed by the setup commands" in outcome.patch
