"""`copilot-eval clean` and --discard-passing-workdirs: finished runs' folders go, nothing else does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import EvalCaseResult
from copilot_eval.runs.passing_workdirs import discard_passing_workdirs
from tests.runs.runs_helpers import CLI


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _folder(root: Path, name: str, age_s: float = 0) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "receipt.txt").write_text("x" * 1000)
    stamp = time.time() - age_s
    os.utime(folder, (stamp, stamp))
    return folder


def test_clean_removes_old_run_folders_and_keeps_fresh_and_foreign_ones(temp_root: Path) -> None:
    old_run = _folder(temp_root, "copilot-eval-run-old", age_s=7200)
    old_ab = _folder(temp_root, "copilot-eval-ab-baseline-0-old", age_s=7200)
    fresh = _folder(temp_root, "copilot-eval-run-fresh")
    foreign = _folder(temp_root, "someone-elses-folder", age_s=7200)
    outcome = CliRunner().invoke(app, ["clean"])
    assert outcome.exit_code == 0, outcome.output
    assert not old_run.exists() and not old_ab.exists()
    assert fresh.exists() and foreign.exists()
    assert "2 working directories" in outcome.output


def test_clean_covers_the_quickstarts_folders_once_it_has_ended(temp_root: Path) -> None:
    from copilot_eval.workdirs import QUICKSTART_PREFIX, marker_of, new_working_directory

    old = _folder(temp_root, f"{QUICKSTART_PREFIX}old", age_s=7200)
    playing = new_working_directory(QUICKSTART_PREFIX)  # a quickstart of this process, still going
    assert playing.parent == temp_root and marker_of(playing).is_file()
    outcome = CliRunner().invoke(app, ["clean", "--older-than", "0"])
    assert outcome.exit_code == 0, outcome.output
    assert not old.exists() and playing.exists()
    assert f"{playing} (in use by process {os.getpid()})" in outcome.output


def test_dry_run_lists_and_removes_nothing(temp_root: Path) -> None:
    kept = _folder(temp_root, "copilot-eval-run-a")
    outcome = CliRunner().invoke(app, ["clean", "--older-than", "0", "--dry-run"])
    assert f"would remove {kept}" in outcome.output and kept.exists()


def _case(passed: bool, evidence_path: str) -> EvalCaseResult:
    return EvalCaseResult(conversation_number=1, passed=passed, evidence_path=evidence_path)


def test_passing_cases_lose_their_folder_and_failing_ones_keep_it(temp_root: Path) -> None:
    passing, failing = _folder(temp_root, "copilot-eval-run-p"), _folder(temp_root, "copilot-eval-run-f")
    cases = []
    for name, folder, status in (("p", passing, "pass"), ("f", failing, "fail")):
        evidence = temp_root / f"{name}.json"
        evidence.write_text(json.dumps({"working_directory": str(folder)}))
        cases.append(_case(status == "pass", evidence.name))
    assert discard_passing_workdirs(cases, temp_root) == 1
    assert not passing.exists() and failing.exists()


def test_evidence_of_a_run_with_a_relative_out_is_found(temp_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `copilot-eval run` writes to eval-runs/NAME by default: evidence paths are then relative to
    # the working directory, not to the run folder, and must still lead to the passing case's folder.
    monkeypatch.chdir(temp_root)
    passing = _folder(temp_root, "copilot-eval-run-p")
    out = Path("eval-runs") / "set-1"
    (out / "evidence").mkdir(parents=True)
    (out / "evidence" / "case1-r0.json").write_text(json.dumps({"working_directory": str(passing)}))
    case = _case(True, str(out / "evidence" / "case1-r0.json"))
    assert discard_passing_workdirs([case], out) == 1
    assert not passing.exists()


# A second process makes a run folder, as a run does, and stays alive; `clean` runs beside it.
HOLDER = """
import sys, time
from copilot_eval.workdirs import new_working_directory
print(new_working_directory(), flush=True)
sys.stdin.readline()  # alive until the test says so
"""


def test_clean_leaves_a_running_processs_folder_and_removes_it_once_that_process_has_ended(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    finished = tmp_path / "copilot-eval-run-finished"
    finished.mkdir()
    (tmp_path / "copilot-eval-run-killed").mkdir()
    (tmp_path / "copilot-eval-run-killed.running").write_text("999999999\n")  # its process is gone
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert holder.stdout is not None
        running = Path(holder.stdout.readline().strip())
        assert running.parent == tmp_path and (tmp_path / f"{running.name}.running").is_file()

        cleaned = subprocess.run([*CLI, "clean", "--older-than", "0"], capture_output=True, text=True, env=env)
        assert cleaned.returncode == 0, cleaned.stderr
        assert running.is_dir()  # the live run keeps its folder
        assert not finished.exists() and not (tmp_path / "copilot-eval-run-killed").exists()
        assert not (tmp_path / "copilot-eval-run-killed.running").exists()
        assert "2 working directories" in cleaned.stdout
        assert f"kept 1 of runs still going:\n  {running} (in use by process {holder.pid})" in cleaned.stdout
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(timeout=30)
    # The process ended: its marker went with it, its folder stayed for people to read; now clean takes it.
    assert running.is_dir() and not (tmp_path / f"{running.name}.running").exists()
    again = subprocess.run([*CLI, "clean", "--older-than", "0"], capture_output=True, text=True, env=env)
    assert not running.exists() and "1 working directory" in again.stdout
