"""The plugin's copilot_workspace fixture: a fresh copy of a folder per test, the patch on the test's report."""

from __future__ import annotations

from pathlib import Path

import pytest

USER_TEST = """
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixture"


def test_edits_are_reported(copilot_workspace):
    workspace = copilot_workspace(FIXTURE, protect=["tests/**"])
    (workspace.path / "tests" / "test_x.py").write_text("def test_x():\\n    assert True\\n")
    assert workspace.run("exit 0").succeeded
    assert False, "fail, so that the report shows the sections"


def test_each_test_has_its_own_copy(copilot_workspace):
    first, second = copilot_workspace(FIXTURE), copilot_workspace(FIXTURE)
    (first.path / "app.py").write_text("changed\\n")
    assert (second.path / "app.py").read_text() == "x = 1\\n"
    assert (FIXTURE / "app.py").read_text() == "x = 1\\n"
    assert first.conclude().changes.changed == ["app.py"]


def test_a_missing_folder_is_named(copilot_workspace):
    copilot_workspace(FIXTURE / "nowhere")
"""


def test_the_patch_and_the_findings_are_attached_to_the_report(pytester: pytest.Pytester) -> None:
    fixture = pytester.path / "fixture"
    (fixture / "tests").mkdir(parents=True)
    (fixture / "app.py").write_text("x = 1\n")
    (fixture / "tests" / "test_x.py").write_text("def test_x():\n    assert 1 == 2\n")
    pytester.makepyfile(test_user=USER_TEST)
    evidence = pytester.path / "evidence"
    outcome = pytester.runpytest_inprocess(
        "test_user.py", "-p", "no:cacheprovider", "-rA", f"--copilot-evidence-dir={evidence}"
    )
    outcome.assert_outcomes(passed=1, failed=2)
    text = outcome.stdout.str()
    assert "copilot workspace patch" in text
    assert "# finding: protected_path_changed tests/test_x.py (changed; protected by 'tests/**')" in text
    assert "-    assert 1 == 2" in text and "+    assert True" in text
    assert "fixture/nowhere: fixture folder not found" in text
    kept = (evidence / "test_user.py_test_edits_are_reported.workspace.patch").read_text()
    assert kept.startswith("# finding: protected_path_changed") and "+    assert True" in kept
    assert (fixture / "tests" / "test_x.py").read_text() == "def test_x():\n    assert 1 == 2\n"
    assert not list(Path(pytester.path).glob("copilot-eval-run-*")), "the copies live in the temporary directory"
