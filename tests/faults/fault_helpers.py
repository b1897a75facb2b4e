"""Helpers shared by the fault tests: process checks and an event-loop ticker."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from copilot_eval.runtime.process.locate import locate_runtime

# The runtime the tool itself uses (explicit env, its cache, or installed now on a fresh machine).
RUNTIME = str(locate_runtime().path)


def child_pids(pid: int) -> set[int]:
    """Live (non-zombie) direct children of a process, read from /proc."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            children.add(int(stat.parent.name))
    return children


def process_gone(pid: int) -> bool:
    """True when the process has exited (a zombie waiting to be reaped counts as exited)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


class Ticker:
    """Ticks on the event loop; the longest gap shows whether anything blocked the loop."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self.longest_gap = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(self.interval)
            now = time.monotonic()
            self.longest_gap = max(self.longest_gap, now - last)
            last = now

    def __enter__(self) -> Ticker:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
