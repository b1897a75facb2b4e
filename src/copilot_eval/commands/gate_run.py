"""``run --gate NAME``: the gate the finisher runs over a run's folder once the history holds it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from copilot_eval.exit_codes import UNUSABLE_INPUT, Verdict
from copilot_eval.gate import GateInputError, GateOptions, gate_folder, gate_markdown, headline, read_golden
from copilot_eval.gate.run_gate import no_history
from copilot_eval.history import HistoryError, HistoryLocationError, HistoryStore, resolve_history
from copilot_eval.reports.run_folder import RunFolder
from copilot_eval.runs.finish import FolderGate, GateOutcome

GATE_SERIES = "auto"
"""`run --gate auto`: gate against the baseline of the run's own test set and agent (TEST_SET@AGENT)."""


def run_gate(out: Path, *, name: str, history: str | None, golden: Path | None, max_regressions: int) -> FolderGate:
    """The gate of ``run --gate NAME`` for the finisher: over the one folder it finishes (``out`` for several)."""

    def gate(folders: Sequence[RunFolder]) -> GateOutcome:
        # Several surfaces have no one folder to gate: ``out`` is read, and refused, as `gate OUT` would be.
        folder: RunFolder | Path = folders[0] if len(folders) == 1 else out
        try:
            options = GateOptions(
                max_regressions=max_regressions, golden=read_golden(golden) if golden else frozenset()
            )
            location = resolve_history(history)
            if location is None:
                raise GateInputError("--gate reads its baseline from the history, which is off (--history off)")
            if not location.exists:
                raise no_history(location.display)
            with HistoryStore.open(location, create=False) as store:
                result = gate_folder(
                    folder, options=options, store=store, baseline=None if name == GATE_SERIES else name
                )
        except (GateInputError, HistoryError, HistoryLocationError, ValueError) as exc:
            return GateOutcome(Verdict(UNUSABLE_INPUT, f"--gate: {exc}"))
        lines = [f"gate against {result.baseline.label}: {headline(result)}"]
        lines += [f"stale baseline: {reason}" for reason in result.stale]
        return GateOutcome(result.verdict, lines, gate_markdown(result))

    return gate


__all__ = ["GATE_SERIES", "run_gate"]
