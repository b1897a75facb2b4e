"""How a resumable run (``run``, ``triggers``) ends when it stops before its folder is finished.

Its own module, not ``cli/exits.py``: it needs the executor's errors, which only a command that
plays should load.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from copilot_eval.cli import interrupts
from copilot_eval.cli.exits import bad_input, leave, platform_failed
from copilot_eval.exit_codes import Verdict
from copilot_eval.runs.executor import AllWorkersLost, ExecutorError


@contextmanager
def resumable_stops(executor: str, kept: str) -> Iterator[None]:
    """A resumable run's stops as its exits, each ending with ``kept`` (what was kept, how to continue).

    All workers lost: exit 3; an executor that cannot start: exit 2 naming ``--executor``; a signal: its row.
    """
    try:
        yield
    except AllWorkersLost as exc:
        raise platform_failed(f"{exc}; {kept}") from None
    except ExecutorError as exc:
        raise bad_input(f"--executor {executor}: {exc}") from None
    except KeyboardInterrupt:
        raise leave(Verdict(interrupts.row(), f"{interrupts.signal_name()}: {kept}")) from None


__all__ = ["resumable_stops"]
