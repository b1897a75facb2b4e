"""Ctrl-C during `copilot-eval run`: exit 130, finished cases kept, no runtime left, resume completes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.faults.fault_helpers import RUNTIME, child_pids, process_gone
from tests.runs.runs_helpers import CLI, checkpoint_units, write_interruptible_set

pytestmark = pytest.mark.runtime


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


# A terminal's Ctrl-C signals the whole foreground process group (the runtimes too); `kill -INT`
# reaches only the command. Both must end the same way.
@pytest.mark.parametrize("target", ["process group", "command only"])
def test_sigint_exits_130_keeps_finished_cases_and_resume_completes(tmp_path, target):
    write_interruptible_set(tmp_path, "interruptible")
    out = tmp_path / "out"
    base = [
        *CLI,
        "run",
        tmp_path / "set.csv",
        "--agent",
        tmp_path / "agent.yaml",
        "--out",
        out,
        "--grader",
        "exact",
        "--no-progress",
    ]
    process = subprocess.Popen(
        [str(c) for c in [*base, "--concurrency", "2"]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "COLUMNS": "400"},
    )
    checkpoint = out / "checkpoint.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (checkpoint.exists() and len(checkpoint_units(checkpoint)) >= 4):
        time.sleep(0.05)
    runtimes = {pid for pid in child_pids(process.pid) if RUNTIME in _command_line(pid)}
    assert runtimes, "the run should have started at least one runtime process"

    if target == "process group":
        os.killpg(process.pid, signal.SIGINT)
    else:
        os.kill(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)

    assert process.returncode == 130, stdout + stderr
    # the table's one line (closing warnings of runtimes that got the signal too may follow it)
    (line,) = [line for line in stderr.splitlines() if line.startswith("exit 130 ")]
    assert line.startswith("exit 130 (interrupted): finished cases are kept in ") and "--resume" in line
    # The command stops its runtimes itself; the short grace only covers a process still being reaped.
    grace = time.monotonic() + 2
    while time.monotonic() < grace and not all(process_gone(pid) for pid in runtimes):
        time.sleep(0.05)
    assert all(process_gone(pid) for pid in runtimes), f"runtime left running: {runtimes}"
    before = checkpoint_units(checkpoint)
    assert 4 <= len(before) < 8, before
    # What finished is also written out, marked as interrupted, so the partial run can be read now.
    partial = json.loads((out / "run.json").read_text())
    assert "interrupted" in partial["note"] and len(partial["results"]) == len(before)

    resumed = subprocess.run(
        [str(c) for c in [*base, "--concurrency", "4", "--resume"]], capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    after = checkpoint_units(checkpoint)
    assert after[: len(before)] == before  # the finished units were kept, not re-run
    assert sorted(after) == sorted(f"case{n}#0" for n in range(1, 9))  # none lost, none twice
    run = json.loads((out / "run.json").read_text())
    assert sorted(r["conversationNumber"] for r in run["results"]) == list(range(1, 9))
    assert run["passed"] == 8
