"""examples/ci/copilot-eval-sharded.yml: the commands its jobs run, run as written, merge and gate."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from copilot_eval.reports.run_folder import read_run_folder

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / "examples" / "ci" / "copilot-eval-sharded.yml"


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _script(job: str, name: str) -> str:
    step = next(s for s in _workflow()["jobs"][job]["steps"] if s.get("name") == name)
    return step["run"]


def test_the_matrix_has_one_job_per_shard_and_the_merge_waits_for_all_of_them():
    flow = _workflow()
    count = int(flow["env"]["SHARDS"])
    assert flow["jobs"]["shard"]["strategy"]["matrix"]["index"] == list(range(1, count + 1))
    assert flow["jobs"]["shard"]["strategy"]["fail-fast"] is False
    merge = flow["jobs"]["merge"]
    assert merge["needs"] == "shard" and merge["if"] == "always()"
    uploads = [s for s in flow["jobs"]["shard"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert uploads[0]["if"] == "always()" and uploads[0]["with"]["path"] == "shard-${{ matrix.index }}/"
    download = next(s for s in merge["steps"] if s.get("uses", "").startswith("actions/download-artifact"))
    assert download["with"]["pattern"] == "copilot-eval-shard-*"


@pytest.mark.runtime
def test_the_jobs_commands_as_written_merge_the_shards_and_gate(tmp_path):
    count = int(_workflow()["env"]["SHARDS"])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "copilot-eval").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m copilot_eval.cli.app "$@"\n')
    (bin_dir / "copilot-eval").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "COLUMNS": "200",
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
    }
    play = _script("shard", "Play this shard").replace("${{ env.SHARDS }}", str(count))
    work = tmp_path / "work"
    shutil.copytree(REPO / "examples", work / "examples")  # the workflow runs at a checkout's root
    for index in range(1, count + 1):
        done = subprocess.run(
            ["bash", "-ec", play.replace("${{ matrix.index }}", str(index))],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        # what the download step does: one folder per artifact under shards/
        (work / "shards").mkdir(exist_ok=True)
        (work / f"shard-{index}").rename(work / "shards" / f"copilot-eval-shard-{index}")
    merged = subprocess.run(
        ["bash", "-ec", _script("merge", "Merge and gate")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert merged.returncode == 0, merged.stderr
    run = read_run_folder(work / "eval-run").run
    assert run.merge.complete and run.merge.shards == list(range(1, count + 1)) and run.passed == 6
    assert (work / "eval-run" / "junit.xml").is_file() and (work / "eval-run" / "report.html").is_file()
    summary = subprocess.run(
        ["bash", "-ec", _script("merge", "Write the step summary")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert summary.returncode == 0 and (tmp_path / "summary.md").read_text().strip()
    # The gate: one shard missing refuses the merge (exit 2), naming it.
    (work / "shards" / "copilot-eval-shard-2").rename(work / "shard-2-lost")
    refused = subprocess.run(
        ["bash", "-ec", _script("merge", "Merge and gate")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert refused.returncode == 2 and f"shard 2/{count} is missing" in refused.stderr
    assert re.search(r"--fail-under \d+", _script("merge", "Merge and gate"))
