"""One started runtime process as the pool holds it, and the exit hook that ends any left over
and removes its home folder."""

from __future__ import annotations

import asyncio
import atexit
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from copilot_eval.runtime.process.home import remove_home
from copilot_eval.runtime.process.router import SessionRouter
from copilot_eval.runtime.process.trace_file import TraceFileReader

if TYPE_CHECKING:  # the agent package loads its models: only the name is needed here
    from copilot_eval.agent.config import ClientMode

# Every runtime process this Python process started and has not stopped, with its home folder.
_live_processes: dict[subprocess.Popen[Any], Path | None] = {}


def _kill_leftovers() -> None:
    """Exit hook: end every runtime process this Python process started and did not stop, then
    remove its home folder. A script that never closes the pool ends here.

    The folder goes only once its process has ended: a live runtime writes its lock, log and
    config back into it. One that will not die keeps its folder for the next process's sweep.
    """
    for process, home in list(_live_processes.items()):
        if process.poll() is None:
            process.kill()
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                continue
        remove_home(home)


atexit.register(_kill_leftovers)


def describe_exit(returncode: int | None) -> str:
    """Human words for a process exit code (signals by name)."""
    if returncode is None:
        return "is still running"
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


@dataclass
class RuntimeHandle:
    """One started runtime process, its SDK client, its session router and its own home folder."""

    client: Any
    router: SessionRouter
    executable: Path
    mode: ClientMode
    process: subprocess.Popen[Any] | None = None
    home: Path | None = None
    sessions_started: int = field(default=0)
    active_sessions: int = field(default=0)  # runs that have not returned yet
    retiring: str | None = None  # why it takes no new sessions (recycling), once decided
    cleanups: set[asyncio.Future[Any]] = field(default_factory=set)  # sessions still being closed
    trace: TraceFileReader | None = None  # the runtime's span file, read per session; None: exporter off

    def __post_init__(self) -> None:
        if self.process is not None:
            _live_processes[self.process] = self.home

    def alive(self) -> bool:
        """Whether the runtime process is still running (True when it cannot be observed)."""
        return self.process is None or self.process.poll() is None

    def exit_description(self) -> str:
        """What happened to the process, for error messages."""
        pid = self.process.pid if self.process is not None else "?"
        returncode = self.process.poll() if self.process is not None else None
        return f"Copilot runtime process {pid} {describe_exit(returncode)}"

    def idle(self) -> bool:
        """No run in flight and no session still being closed."""
        return self.active_sessions == 0 and not self.cleanups

    def forget_process(self) -> None:
        """The process has ended: the exit hook need not look at it any more, and its pipes are closed
        (the SDK leaves them open; Python would warn about each one when it collects the process)."""
        if self.process is not None:
            _live_processes.pop(self.process, None)
            for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
                try:
                    if pipe is not None:
                        pipe.close()
                except (OSError, ValueError):
                    pass
