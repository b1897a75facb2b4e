"""Signals during `copilot-eval run`: SIGINT and SIGTERM, to the command or to its whole group, with
SIGINT inherited ignored or not, all end the same way: finished cases kept, a --resume line, exit 130
(SIGINT) or 143 (SIGTERM), no runtime left, and no case blamed on the agent for a runtime that died."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.faults.fault_helpers import RUNTIME, child_pids, process_gone
from tests.runs.runs_helpers import CLI, checkpoint_units, write_interruptible_set

pytestmark = pytest.mark.runtime

# What `cmd &` in a script does: the command starts with SIGINT ignored (exec keeps that).
IGNORING_SIGINT = [
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])",
]


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _base(tmp_path: Path) -> list[str]:
    write_interruptible_set(tmp_path, "interruptible")
    out = tmp_path / "out"
    command = [*CLI, "run", tmp_path / "set.csv", "--agent", tmp_path / "agent.yaml", "--out", out]
    return [str(part) for part in [*command, "--grader", "exact", "--no-progress"]]


# A terminal's Ctrl-C signals the whole foreground group; `kill -INT` the command alone; a CI cancel
# or `timeout` sends SIGTERM; a background job of a script inherited SIGINT ignored. One case per path
# of cli/interrupts.py, each way of sending once: SIGINT to the group (the handler as Python installs it,
# and the runtimes' own groups keeping them out of a group signal); SIGINT to the command alone with
# SIGINT inherited ignored (install() answering it again); SIGTERM with SIGINT inherited ignored
# (_on_sigterm handing over to what answers SIGINT after install(), not to the inherited SIG_IGN).
# SIGTERM to the command alone and SIGINT-ignored to the group played these same paths again.
@pytest.mark.parametrize(
    ("signum", "target", "sigint_ignored", "code"),
    [
        (signal.SIGINT, "group", False, 130),
        (signal.SIGINT, "command", True, 130),
        (signal.SIGTERM, "group", True, 143),
    ],
    ids=["sigint-group", "sigint-command-ignored", "sigterm-group-ignored"],
)
def test_a_signal_ends_the_run_the_same_way_and_resume_completes(tmp_path, signum, target, sigint_ignored, code):
    base = _base(tmp_path)
    out = tmp_path / "out"
    process = subprocess.Popen(
        [*(IGNORING_SIGINT if sigint_ignored else []), *base, "--concurrency", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a shell gives a job: the group signal is the test's alone
        env={**os.environ, "COLUMNS": "400"},
    )
    checkpoint = out / "checkpoint.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (checkpoint.exists() and len(checkpoint_units(checkpoint)) >= 4):
        time.sleep(0.05)
    runtimes = {pid for pid in child_pids(process.pid) if RUNTIME in _command_line(pid)}
    assert runtimes, "the run should have started at least one runtime process"
    # The runtimes are in groups of their own: a signal to the command's group does not reach them.
    assert all(os.getpgid(pid) != os.getpgid(process.pid) for pid in runtimes)

    if target == "group":
        os.killpg(process.pid, signum)
    else:
        os.kill(process.pid, signum)
    stdout, stderr = process.communicate(timeout=30)

    assert process.returncode == code, stdout + stderr
    name = signal.Signals(signum).name
    # the table's one line (closing warnings of runtimes that got the signal too may follow it)
    (line,) = [line for line in stderr.splitlines() if line.startswith(f"exit {code} ")]
    row = "interrupted" if signum == signal.SIGINT else "terminated"
    assert line.startswith(f"exit {code} ({row}): {name}: finished cases are kept in "), line
    assert f"--resume --out {out}" in line
    # The command stops its runtimes itself; the short grace only covers a process still being reaped.
    grace = time.monotonic() + 2
    while time.monotonic() < grace and not all(process_gone(pid) for pid in runtimes):
        time.sleep(0.05)
    assert all(process_gone(pid) for pid in runtimes), f"runtime left running: {runtimes}"
    before = checkpoint_units(checkpoint)
    assert 4 <= len(before) < 8, before
    # What finished is also written out, marked as interrupted, so the partial run can be read now;
    # and no case is an execution error: the runtimes never got the signal, nothing played on after it.
    partial = json.loads((out / "run.json").read_text())
    assert "interrupted" in partial["note"] and len(partial["results"]) == len(before)
    assert [r["status"] for r in partial["results"]] == ["pass"] * len(before)
    assert "execution_error" not in checkpoint.read_text()

    if (signum, target, sigint_ignored) != (signal.SIGINT, "group", False):
        return  # resuming is the same after every signal: shown once
    resumed = subprocess.run([*base, "--concurrency", "4", "--resume"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    after = checkpoint_units(checkpoint)
    assert after[: len(before)] == before  # the finished units were kept, not re-run
    assert sorted(after) == sorted(f"case{n}#0" for n in range(1, 9))  # none lost, none twice
    run = json.loads((out / "run.json").read_text())
    assert sorted(r["conversationNumber"] for r in run["results"]) == list(range(1, 9))
    assert run["passed"] == 8
