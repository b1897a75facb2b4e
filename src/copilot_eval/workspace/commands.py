"""Shell commands in a workspace (setup before the agent, command graders after it), bounded in time.

A command runs in its own process group with the workspace as its folder and no input; at its time
limit the whole group is killed. Its output (stdout and stderr together) is kept, cut to its last
``MAX_OUTPUT_CHARS``. Whether it ran is a fact apart from its exit code: a command that could not
start or ran out of time has ``problem`` set, and callers make that an ``error``, never a ``fail``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

DEFAULT_TIME_LIMIT_S = 300.0
MAX_OUTPUT_CHARS = 64_000


@dataclass(frozen=True)
class CommandOutcome:
    """One command's run: its exit code (``None`` when it did not finish), output, time, and any problem."""

    command: str
    exit_code: int | None
    output: str
    duration_s: float
    problem: str | None = None

    @property
    def succeeded(self) -> bool:
        """It ran to the end and exited 0."""
        return self.problem is None and self.exit_code == 0

    def as_text(self) -> str:
        """The outcome as a plain-text record (what is kept as evidence)."""
        status = self.problem or f"exit code {self.exit_code}"
        return f"$ {self.command}\n# {status}, {self.duration_s:.1f} s\n{self.output}"


def _cut(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    return f"[... {len(text) - MAX_OUTPUT_CHARS} characters cut ...]\n" + text[-MAX_OUTPUT_CHARS:]


def run_command(command: str, cwd: Path, *, time_limit_s: float = DEFAULT_TIME_LIMIT_S) -> CommandOutcome:
    """Run ``command`` through the shell in ``cwd``; never raises for the command's own failure."""
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            command,
            shell=True,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so a time limit ends its children too
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
    except OSError as exc:
        return CommandOutcome(command, None, "", 0.0, f"could not start: {exc.strerror or exc}")
    try:
        raw, _ = process.communicate(timeout=time_limit_s)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raw, _ = process.communicate()
        took = time.monotonic() - started
        output = _cut(raw.decode("utf-8", errors="replace"))
        return CommandOutcome(command, None, output, took, f"timed out after {time_limit_s:g} s")
    took = time.monotonic() - started
    output = _cut(raw.decode("utf-8", errors="replace"))
    if process.returncode == 127:  # the shell's "command not found"
        return CommandOutcome(command, 127, output, took, "could not run: command not found (exit code 127)")
    return CommandOutcome(command, process.returncode, output, took)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()


__all__ = ["DEFAULT_TIME_LIMIT_S", "MAX_OUTPUT_CHARS", "CommandOutcome", "run_command"]
