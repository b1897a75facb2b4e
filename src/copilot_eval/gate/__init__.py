"""The pull request's question: did this change make the agent worse, and where? Per case, against a blessed baseline.

``bless_folder`` makes a run the baseline of its test set and agent in the history (it never moves
by itself); ``gate_folder`` compares a run with it case by case (single tries: passed then, fails
now; repeats: a one-sided Fisher exact test), keeps errors apart, fails on any golden case and
names a stale baseline; ``gate_markdown``, ``gate_json`` and ``gate_junit`` say what it found.
Reads run folders and the history, never the internals of ``runs``. See docs/ci.md.
"""

from __future__ import annotations

from copilot_eval.gate.decide import KINDS, CaseOutcome, GateOptions, GateResult, decide
from copilot_eval.gate.run_gate import GateInputError, bless_folder, gate_folder, read_golden
from copilot_eval.gate.sides import CaseSide, RunSide
from copilot_eval.gate.views import gate_json, gate_junit, gate_markdown, headline

__all__ = [
    "KINDS",
    "CaseOutcome",
    "CaseSide",
    "GateInputError",
    "GateOptions",
    "GateResult",
    "RunSide",
    "bless_folder",
    "decide",
    "gate_folder",
    "gate_json",
    "gate_junit",
    "gate_markdown",
    "headline",
    "read_golden",
]
