"""The verdict of a trigger evaluation: its gates (minimum precision and recall) and plays that could not count.

Rows of the one exit-code table (``copilot_eval.exit_codes``): no play counted because the
catalogue could not be set up is unusable input; no play counted for any other reason (errors,
undelivered descriptions) is the platform's; a skill below ``min_precision`` or ``min_recall`` is
below a gate. A gate is for every skill of the set (``NAME=None`` key) or for one named skill;
a figure that is unknown (a skill no prompt took has no precision) is said, and meets no gate it
is asked to meet only when it is a recall of a skill with expected prompts (then it is known).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from copilot_eval.exit_codes import BELOW_GATE, PASSED, PLATFORM, UNUSABLE_INPUT, Verdict, worst
from copilot_eval.triggers.figures import TriggerFigures

__all__ = ["TriggerGates", "parse_gate", "trigger_verdict"]


@dataclass(frozen=True)
class TriggerGates:
    """Minimum precision and recall, for every skill (key ``None``) or for one skill by name."""

    min_precision: Mapping[str | None, float] = field(default_factory=dict)
    min_recall: Mapping[str | None, float] = field(default_factory=dict)


def parse_gate(values: list[str] | tuple[str, ...], option: str) -> dict[str | None, float]:
    """``0.8`` (every skill) or ``NAME=0.8`` (one skill), each a share 0..1; a ValueError names the option."""
    gates: dict[str | None, float] = {}
    for value in values:
        name, _, number = value.rpartition("=")
        try:
            share = float(number)
        except ValueError:
            raise ValueError(f"{option} {value!r}: expected a share such as 0.8 or NAME=0.8") from None
        if not 0 <= share <= 1:
            raise ValueError(f"{option} {value!r}: a share between 0 and 1")
        gates[name.strip() or None] = share
    return gates


def _missed(figures: TriggerFigures, gates: Mapping[str | None, float], what: str) -> list[str]:
    missed: list[str] = []
    unknown_names = [name for name in gates if name is not None and name not in {s.name for s in figures.skills}]
    missed += [f"--min-{what} names {name!r}, which the trigger set does not expect" for name in unknown_names]
    for skill in figures.skills:
        floor = gates.get(skill.name, gates.get(None))
        if floor is None:
            continue
        value = skill.precision if what == "precision" else skill.recall
        if value is None:
            if what == "recall":
                missed.append(f"{skill.name}: recall unknown (no prompt expecting it counted), --min-recall {floor:g}")
            continue
        if value < floor:
            missed.append(f"{skill.name}: {what} {value:.0%} is below --min-{what} {floor:g}")
    return missed


def trigger_verdict(figures: TriggerFigures, gates: TriggerGates | None = None) -> Verdict:
    """The row a trigger evaluation exits by, and why."""
    gates = gates or TriggerGates()
    verdicts = [PASSED]
    if figures.counted == 0:
        apart = ", ".join(f"{n} {k}" for k, n in sorted(figures.apart.items())) or "no play"
        row = UNUSABLE_INPUT if set(figures.apart) == {"setup"} else PLATFORM
        verdicts.append(Verdict(row, f"no play counted ({apart})"))
    missed = _missed(figures, gates.min_precision, "precision") + _missed(figures, gates.min_recall, "recall")
    if missed:
        verdicts.append(Verdict(BELOW_GATE, "; ".join(missed)))
    return worst(verdicts)
