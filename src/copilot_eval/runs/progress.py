"""A live progress bar for a run: done / failed / errors and an ETA (rich), or nothing at all."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from copilot_eval.evalsets import CaseStatus, EvalCaseResult


class RunProgress:
    """Counts finished cases; draws a rich progress bar on a terminal when ``enabled``."""

    def __init__(self, total: int, *, enabled: bool = True, console: Any = None) -> None:
        self.total = total
        self.counts = dict.fromkeys(CaseStatus, 0)
        self._progress: Any = None
        self._task: Any = None
        if enabled:
            self._progress = Progress(
                TextColumn("[bold]eval"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[tally]}"),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=console,
                transient=False,
            )
            self._task = self._progress.add_task("eval", total=total, tally=self._tally())

    def _tally(self) -> str:
        c = self.counts
        return (
            f"[green]{c[CaseStatus.PASS]} passed[/] [red]{c[CaseStatus.FAIL]} failed[/] "
            f"[yellow]{c[CaseStatus.ERROR]} errors[/]"
        )

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.stop()

    def add(self, results: Sequence[EvalCaseResult]) -> None:
        """Count finished results (also those restored from a checkpoint)."""
        for result in results:
            self.counts[result.effective_status] += 1
        if self._progress is not None:
            self._progress.update(self._task, advance=len(results), tally=self._tally())


__all__ = ["RunProgress"]
