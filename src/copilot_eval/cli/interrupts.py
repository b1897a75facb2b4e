"""How a command ends on SIGINT or SIGTERM: the same way for both, whoever sent it.

A terminal's Ctrl-C signals the whole foreground group, `kill -INT` the command alone, a CI cancel
or `timeout` sends SIGTERM, and a command started as a background job of a script (`cmd &`)
inherits SIGINT ignored. In every case the command stops the same way: what finished is kept, the
runtimes are stopped by the command (they run in process groups of their own), a line says how to
continue, and the exit code names the signal as shells do, 128 plus its number: 130 for SIGINT,
143 for SIGTERM.

SIGTERM is handed to whatever answers SIGINT at that moment (asyncio's runner, which cancels its
main task; otherwise Python's handler, which raises KeyboardInterrupt), so both signals take the
one path every command already has for Ctrl-C.
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import Any

EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143

_terminated: list[bool] = [False]


def _on_sigterm(signum: int, frame: FrameType | None) -> Any:
    _terminated[0] = True
    answer = signal.getsignal(signal.SIGINT)
    if callable(answer) and answer is not _on_sigterm:
        return answer(signal.SIGINT, frame)
    raise KeyboardInterrupt


def install() -> None:
    """Answer SIGINT, even when it was inherited ignored, and SIGTERM the same way (main thread only)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _on_sigterm)


def terminated() -> bool:
    """Whether SIGTERM came (an interrupt without it was a SIGINT)."""
    return _terminated[0]


def exit_code() -> int:
    """The exit code of an interrupted command: 143 when SIGTERM ended it, else 130."""
    return EXIT_TERMINATED if terminated() else EXIT_INTERRUPTED


def signal_name() -> str:
    """What ended the command, for its last line: ``SIGTERM`` or ``SIGINT``."""
    return "SIGTERM" if terminated() else "SIGINT"


def resume_line(out: object) -> str:
    """The line an interrupted run ends on: what was kept and how to continue."""
    return f"interrupted ({signal_name()}): finished cases are kept in {out}; continue with --resume --out {out}"


def final_exit_code(code: Any) -> Any:
    """The process's exit code: Typer's 130 for an uncaught interrupt is 143 when SIGTERM caused it."""
    return EXIT_TERMINATED if code == EXIT_INTERRUPTED and terminated() else code


__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "exit_code",
    "final_exit_code",
    "install",
    "resume_line",
    "signal_name",
    "terminated",
]
