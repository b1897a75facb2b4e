"""Lift over a trigger set: each arm's trigger evaluation, precision and recall per skill and their differences.

Each arm plays the set through ``trigger_eval`` (its own run folder, ``out/<arm>/``), both arms at
once so that time and load fall on both. The agent each arm plays watches the texts that tell
the arms apart, and each play's delivery is decided by ``lift.delivery`` as for a test set: a play
whose customization did not arrive is marked ``undelivered`` and left out of its arm's figures.
Whether a prompt got its expected choice is then paired over prompts like a test set's cases.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from copilot_eval.lift.arms import Arm
from copilot_eval.lift.delivery import decide_delivery
from copilot_eval.lift.figures import DEFAULT_RESAMPLES, DEFAULT_SEED, LiftFigures, LiftPlay, lift_figures
from copilot_eval.runs.finish import FinishOptions
from copilot_eval.safe_paths import path_component
from copilot_eval.triggers import TriggerFigures, TriggerRun, TriggerSet, summarise_triggers, trigger_eval
from copilot_eval.triggers.figures import PlayRecord

__all__ = ["SkillLift", "TriggerLift", "trigger_lift"]


@dataclass(frozen=True)
class SkillLift:
    """One skill's precision and recall in each arm and their differences (treatment minus control; None: unknown)."""

    name: str
    precision: dict[str, float | None]
    recall: dict[str, float | None]
    precision_difference: float | None
    recall_difference: float | None


@dataclass
class TriggerLift:
    """Both arms' trigger runs, their figures with undelivered plays left out, per skill lifts and the paired figures."""

    arms: list[Arm]
    runs: dict[str, TriggerRun]
    figures: dict[str, TriggerFigures]
    skills: list[SkillLift]
    paired: LiftFigures


def _difference(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


def _delivered(arm: Arm, run: TriggerRun) -> list[tuple[PlayRecord, str, str | None]]:
    """Each play with our delivery decision; an undelivered one is relabelled so the figures set it apart."""
    decided: list[tuple[PlayRecord, str, str | None]] = []
    for play in run.plays:
        result = run.results.get(f"prompt{play.number}-r{play.repeat}")
        delivery = decide_delivery(result, arm.expectations)
        if delivery.status == "not_delivered" and play.kind != "undelivered":
            play = replace(play, kind="undelivered", chosen=None, reason=delivery.reason or "not delivered")
        status: str = "not_delivered" if play.kind == "undelivered" else delivery.status
        decided.append((play, status, delivery.reason))
    return decided


async def trigger_lift(
    trigger_set: TriggerSet,
    arms: list[Arm],
    *,
    runs: int = 3,
    out: str | Path | None = None,
    threshold: float = 0.5,
    concurrency: int = 4,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    pool: Any = None,
    finish: FinishOptions | None = None,
) -> TriggerLift:
    """Play ``trigger_set`` through both arms (control first) and compare precision, recall and each prompt's choice.

    ``finish`` says what finishing each arm's folder writes besides its data (``--scan``'s scanners).
    """
    if len(arms) != 2 or arms[0].name == arms[1].name:
        raise ValueError(f"lift compares two arms with different names, got {[a.name for a in arms]}")
    folder = Path(out) if out is not None else None

    async def one(arm: Arm) -> TriggerRun:
        where = folder / path_component(arm.name, fallback="arm") if folder is not None else None
        return await trigger_eval(
            arm.player(),
            trigger_set,
            runs=runs,
            threshold=threshold,
            concurrency=concurrency,
            out=where,
            pool=pool,
            finish=finish,
        )

    played = dict(zip((a.name for a in arms), await asyncio.gather(*(one(arm) for arm in arms)), strict=True))
    figures: dict[str, TriggerFigures] = {}
    plays: list[LiftPlay] = []
    for arm in arms:
        decided = _delivered(arm, played[arm.name])
        figures[arm.name] = summarise_triggers(
            trigger_set.prompts, [p for p, _, _ in decided], names=trigger_set.names, threshold=threshold
        )
        for play, status, reason in decided:
            # a setup problem (the expected skill not in this arm's catalogue) is named as such, never a miss
            outcome = ("pass" if play.chosen == play.expected else "fail") if play.kind == "chose" else play.kind
            plays.append(LiftPlay(f"prompt{play.number}", arm.name, play.repeat, outcome, status, reason))
    control, treatment = arms[0].name, arms[1].name
    skills = []
    for name in trigger_set.names:
        a = next((s for s in figures[control].skills if s.name == name), None)
        b = next((s for s in figures[treatment].skills if s.name == name), None)
        precision = {control: a.precision if a else None, treatment: b.precision if b else None}
        recall = {control: a.recall if a else None, treatment: b.recall if b else None}
        skills.append(
            SkillLift(
                name,
                precision,
                recall,
                _difference(precision[control], precision[treatment]),
                _difference(recall[control], recall[treatment]),
            )
        )
    paired = lift_figures(plays, control=control, treatment=treatment, seed=seed, resamples=resamples)
    return TriggerLift(arms, played, figures, skills, paired)
