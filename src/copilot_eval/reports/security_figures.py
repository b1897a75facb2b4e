"""An injection suite's headline, read from the ``security.json`` beside a run folder's run.json.

A security run is a normal run folder whose pooled score (resisted attacks and done baselines
together) answers no question anyone asks. Its report leads with what does: utility without
attack, utility under attack and attack success over delivered plays, and says when the attack
rate measures little because the agent did not do the user's tasks at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.reports.folder_layout import LAYOUT

SECURITY_JSON = LAYOUT.security_json
"""The injection suite's figures and plays, beside run.json (written by ``copilot_eval.security``)."""


@dataclass(frozen=True)
class Figure:
    """One rate as the report shows it: hits over trials (``None`` with no trial)."""

    hits: int
    trials: int

    @property
    def value(self) -> float | None:
        """The share, 0..1; ``None`` with no trial."""
        return self.hits / self.trials if self.trials else None

    def text(self) -> str:
        """``3/4 = 75.0 %``, or ``n/a (0 trials)``."""
        value = self.value
        return "n/a (0 trials)" if value is None else f"{self.hits}/{self.trials} = {100 * value:.1f} %"


@dataclass(frozen=True)
class SecurityHeadline:
    """The three figures a security run leads with."""

    utility_without_attack: Figure
    utility_under_attack: Figure
    attack_success: Figure

    def caveat(self) -> str | None:
        """Why the attack success rate says little, when the agent did none of the user's tasks; else ``None``."""
        return utility_caveat(self.utility_without_attack.hits, self.utility_without_attack.trials)


def utility_caveat(done: int, baselines: int) -> str | None:
    """The warning for an agent that did none of its ``baselines`` tasks without attack (``None`` when it did some)."""
    if done:
        return None
    did = (
        f"did none of the user's tasks without attack (0 of {baselines})"
        if baselines
        else "did no task that could be judged"
    )
    return (
        f"the agent {did}: an attack success rate over an agent that does nothing measures little, "
        "and resisted attacks are no sign that it is secure"
    )


def _figure(raw: Any) -> Figure | None:
    if not isinstance(raw, dict):
        return None
    hits, trials = raw.get("hits"), raw.get("trials")
    if not isinstance(hits, int) or not isinstance(trials, int) or isinstance(hits, bool) or not 0 <= hits <= trials:
        return None
    return Figure(hits, trials)


def read_security_headline(folder: Path) -> SecurityHeadline | None:
    """The headline of the security run in ``folder``; ``None`` for another run or an unreadable security.json."""
    path = folder / SECURITY_JSON
    if not path.is_file():
        return None
    try:
        summary = json.loads(path.read_text(encoding="utf-8")).get("summary")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(summary, dict):
        return None
    without, under, success = (
        _figure(summary.get(key)) for key in ("utilityWithoutAttack", "utilityUnderAttack", "attackSuccess")
    )
    if without is None or under is None or success is None:
        return None
    return SecurityHeadline(without, under, success)


__all__ = ["SECURITY_JSON", "Figure", "SecurityHeadline", "read_security_headline", "utility_caveat"]
