"""Exceptions of the evalsets layer: each carries every problem found, not just the first."""

from __future__ import annotations

from pathlib import Path


class EvalSetError(ValueError):
    """A test-set or run file could not be read or written; ``problems`` lists every reason."""

    def __init__(self, path: Path | str | None, problems: list[str]) -> None:
        self.path = Path(path) if path is not None else None
        self.problems = list(problems)
        where = str(self.path) if self.path is not None else "<text>"
        count = len(self.problems)
        lines = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"{where}: {count} problem{'s' if count != 1 else ''}\n{lines}")


class EvalSetReadError(EvalSetError):
    """Reading a CSV or JSON file failed; nothing was produced."""


class EvalSetWriteError(EvalSetError):
    """Writing a file failed before anything was written (e.g. text that UTF-8 cannot encode)."""


__all__ = ["EvalSetError", "EvalSetReadError", "EvalSetWriteError"]
