"""The exit codes of every copilot-eval command and of the pytest plugin's verdict: one table.

A CI job acts on an exit code, so the same fact gives the same code everywhere: ``run`` with one
or several agents, ``merge``, ``studio-eval``, ``analyze``, ``regrade``, ``compare`` and the rest.
Each row says what it means; when several apply, the row of the higher ``rank`` wins (unusable
input, then the platform, then a gate). A non-zero exit prints one line, :meth:`Verdict.line`,
naming the row and why. Adding a row is one ``ExitRow`` here and its line in ``EXIT_TABLE``;
docs/evaluation-runs.md shows the table and a test keeps the two equal.

A leaf module: the command modules read it at import time, before any heavy layer is loaded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ExitRow:
    """One row of the table: the code, its short name (printed), what it means, and its precedence."""

    code: int
    name: str
    meaning: str
    rank: int


OK = ExitRow(0, "completed", "the command completed and every gate was met", rank=0)
BELOW_GATE = ExitRow(
    1,
    "below a gate",
    "the agent is below a gate: `--fail-under`, `--min-pass-rate`, a regression against a baseline "
    "(`--fail-on-regression`), a finding of a scanner made a gate (`--fail-on-finding`), or an instruction file "
    "`customizations --expect` names that did not reach the model",
    rank=1,
)
UNUSABLE_INPUT = ExitRow(
    2,
    "unusable input",
    "nothing ran, or nothing was written: a missing or invalid file, option, test set, agent or run folder",
    rank=3,
)
PLATFORM = ExitRow(
    3,
    "the platform or the infrastructure",
    "no verdict on the agent: nothing could be graded, a runtime limitation is recorded (suspected or "
    "confirmed), the Ray executor lost every worker, Copilot Studio was busy, at its daily limit or answered 5xx; "
    "with or without a gate",
    rank=2,
)
INTERRUPTED = ExitRow(130, "interrupted", "SIGINT (Ctrl-C): what finished is kept; continue with `--resume`", rank=4)
TERMINATED = ExitRow(
    143, "terminated", "SIGTERM (a CI cancel, `timeout`): what finished is kept; continue with `--resume`", rank=4
)

EXIT_TABLE: tuple[ExitRow, ...] = (OK, BELOW_GATE, UNUSABLE_INPUT, PLATFORM, INTERRUPTED, TERMINATED)
"""Every row, in code order: what docs/evaluation-runs.md shows."""


@dataclass(frozen=True)
class Verdict:
    """The row that applies and why (``None`` for a plain success)."""

    row: ExitRow
    why: str | None = None

    @property
    def code(self) -> int:
        """The process exit code."""
        return self.row.code

    def line(self) -> str | None:
        """``exit 3 (the platform or the infrastructure): WHY``; ``None`` for exit 0."""
        if self.row.code == OK.code:
            return None
        return f"exit {self.row.code} ({self.row.name})" + (f": {self.why}" if self.why else "")


PASSED = Verdict(OK)
"""The verdict of a command that completed with every gate met."""


def worst(verdicts: Iterable[Verdict]) -> Verdict:
    """The verdict of the highest-ranked row; the reasons of every verdict of that row, joined."""
    found = list(verdicts)
    if not found:
        return PASSED
    top = max(found, key=lambda verdict: verdict.row.rank).row
    reasons = [v.why for v in found if v.row == top and v.why]
    return Verdict(top, "; ".join(dict.fromkeys(reasons)) or None)


def row_of(code: int) -> ExitRow:
    """The row of an exit code; ValueError for a code the table does not hold."""
    for row in EXIT_TABLE:
        if row.code == code:
            return row
    raise ValueError(f"exit code {code} is not in copilot-eval's table ({', '.join(str(r.code) for r in EXIT_TABLE)})")


__all__ = [
    "BELOW_GATE",
    "EXIT_TABLE",
    "INTERRUPTED",
    "OK",
    "PASSED",
    "PLATFORM",
    "TERMINATED",
    "UNUSABLE_INPUT",
    "ExitRow",
    "Verdict",
    "row_of",
    "worst",
]
