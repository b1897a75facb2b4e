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

from copilot_eval.exit_codes import INTERRUPTED, TERMINATED, ExitRow, Verdict

EXIT_INTERRUPTED = INTERRUPTED.code  # 128 + SIGINT
EXIT_TERMINATED = TERMINATED.code  # 128 + SIGTERM

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


def signal_name() -> str:
    """What ended the command, for its last line: ``SIGTERM`` or ``SIGINT``."""
    return "SIGTERM" if terminated() else "SIGINT"


def row() -> ExitRow:
    """The table's row of the signal that came: terminated (143) for SIGTERM, else interrupted (130)."""
    return TERMINATED if terminated() else INTERRUPTED


def stopped_verdict() -> Verdict:
    """The verdict of a command stopped by a signal before it could say what was kept."""
    return Verdict(row(), f"{signal_name()}: stopped before the command finished")


def final_exit_code(code: int) -> int:
    """The process's exit code: Typer's 130 for an uncaught interrupt is 143 when SIGTERM caused it."""
    return EXIT_TERMINATED if code == EXIT_INTERRUPTED and terminated() else code


__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "final_exit_code",
    "install",
    "row",
    "signal_name",
    "stopped_verdict",
    "terminated",
]
