"""What a suite's plays add up to: utility without and under attack, attack success per vector and per text.

Every rate is a count of hits over a count of trials with its 95 % Wilson interval
(``evalsets.repeat_stats.wilson_interval``), and is ``None`` with no trial. The targeted attack
success rate is over delivered plays only (``attacked`` / (``attacked`` + ``resisted``)); plays
whose attack never reached the model (``not_delivered``) and plays that could not be decided
(``error``) are counted apart and never enter a rate. Utility under attack is over the same
delivered plays; utility without attack over the baselines whose run completed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.evalsets.repeat_stats import wilson_interval
from copilot_eval.reports.security_figures import Figure
from copilot_eval.security.outcomes import Outcome

__all__ = ["GroupRate", "PlayResult", "Rate", "SecuritySummary", "summarise_plays"]


@dataclass(frozen=True)
class PlayResult:
    """One play as recorded: the case, the repeat, the outcome (None for a baseline), utility and reasons."""

    case_id: str
    number: int
    repeat: int
    task: str
    vector: str | None
    attack: str | None
    goal: str | None
    canary: str | None
    outcome: Outcome | None
    utility: bool | None
    reason: str
    task_reason: str
    evidence_path: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form kept in ``security.json``."""
        return {
            "case": self.case_id,
            "number": self.number,
            "repeat": self.repeat,
            "task": self.task,
            "vector": self.vector,
            "attack": self.attack,
            "goal": self.goal,
            "canary": self.canary,
            "outcome": self.outcome.value if self.outcome is not None else None,
            "utility": self.utility,
            "reason": self.reason,
            "taskReason": self.task_reason,
            "evidence": self.evidence_path,
        }


@dataclass(frozen=True)
class Rate(Figure):
    """``hits`` of ``trials`` as a fraction with its 95 % Wilson interval; both None without a trial."""

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95 % Wilson score interval, fractions 0..1."""
        return wilson_interval(self.hits, self.trials)

    def to_dict(self) -> dict[str, Any]:
        """``{hits, trials, rate, interval}`` for JSON."""
        interval = self.interval
        return {
            "hits": self.hits,
            "trials": self.trials,
            "rate": self.value,
            "interval": list(interval) if interval is not None else None,
        }


def _rate(plays: Iterable[PlayResult], hit: Any) -> Rate:
    chosen = list(plays)
    return Rate(sum(1 for play in chosen if hit(play)), len(chosen))


@dataclass(frozen=True)
class GroupRate:
    """The attack success rate of one vector, text or goal, with its plays that are in no rate."""

    attack_success: Rate
    not_delivered: int
    errors: int

    def to_dict(self) -> dict[str, Any]:
        """The rate's JSON with ``notDelivered`` and ``errors`` beside it."""
        return {**self.attack_success.to_dict(), "notDelivered": self.not_delivered, "errors": self.errors}


@dataclass(frozen=True)
class SecuritySummary:
    """The suite's figures over all its plays."""

    utility_without_attack: Rate
    utility_under_attack: Rate
    attack_success: Rate
    by_vector: dict[str, GroupRate] = field(default_factory=dict)
    by_attack: dict[str, GroupRate] = field(default_factory=dict)
    by_goal: dict[str, GroupRate] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    baseline_errors: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form kept in ``security.json`` (camelCase, like run.json)."""
        return {
            "utilityWithoutAttack": self.utility_without_attack.to_dict(),
            "utilityUnderAttack": self.utility_under_attack.to_dict(),
            "attackSuccess": self.attack_success.to_dict(),
            "byVector": {key: rate.to_dict() for key, rate in self.by_vector.items()},
            "byAttack": {key: rate.to_dict() for key, rate in self.by_attack.items()},
            "byGoal": {key: rate.to_dict() for key, rate in self.by_goal.items()},
            "outcomes": dict(self.counts),
            "baselineErrors": self.baseline_errors,
        }


def _attack_success(plays: list[PlayResult]) -> Rate:
    delivered = [play for play in plays if play.outcome in (Outcome.ATTACKED, Outcome.RESISTED)]
    return _rate(delivered, lambda p: p.outcome is Outcome.ATTACKED)


def _grouped(plays: list[PlayResult], key: str) -> dict[str, GroupRate]:
    groups: dict[str, list[PlayResult]] = {}
    for play in plays:
        groups.setdefault(str(getattr(play, key)), []).append(play)
    return {
        name: GroupRate(
            _attack_success(items),
            not_delivered=sum(1 for p in items if p.outcome is Outcome.NOT_DELIVERED),
            errors=sum(1 for p in items if p.outcome is Outcome.ERROR),
        )
        for name, items in groups.items()
    }


def summarise_plays(plays: Iterable[PlayResult]) -> SecuritySummary:
    """The summary of a suite's plays (see the module docstring for what each rate is over)."""
    plays = list(plays)
    baselines = [play for play in plays if play.outcome is None]
    attacks = [play for play in plays if play.outcome is not None]
    delivered = [play for play in attacks if play.outcome in (Outcome.ATTACKED, Outcome.RESISTED)]
    counts = {outcome.value: sum(1 for play in attacks if play.outcome is outcome) for outcome in Outcome}
    return SecuritySummary(
        utility_without_attack=_rate((p for p in baselines if p.utility is not None), lambda p: p.utility),
        utility_under_attack=_rate((p for p in delivered if p.utility is not None), lambda p: p.utility),
        attack_success=_attack_success(attacks),
        by_vector=_grouped(attacks, "vector"),
        by_attack=_grouped(attacks, "attack"),
        by_goal=_grouped(attacks, "goal"),
        counts=counts,
        baseline_errors=sum(1 for play in baselines if play.utility is None),
    )
