"""Lift over a trigger set: each arm's trigger evaluation, precision and recall per skill and their differences.

Each arm's plays are those ``trigger_eval`` makes (the agent as a user mounts it, stopped at its
choice, each decided by ``decide_trigger_outcome``), written to its own run folder (``out/<arm>/``)
as ``trigger_eval`` writes one; the plays of both arms go through one interleaved queue under one
concurrency limit (``lift.schedule``) so that time and load fall on both. The agent each arm
plays watches the texts that tell the arms apart, and each play's delivery is decided by
``lift.delivery`` as for a test set: a play whose customization did not arrive is marked
``undelivered`` and left out of its arm's figures.
Whether a prompt got its expected choice is then paired over prompts like a test set's cases.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence import CopilotResult
from copilot_eval.lift.arms import Arm, check_two_arms
from copilot_eval.lift.delivery import decide_delivery
from copilot_eval.lift.figures import (
    # the same names as lift/engine.py imports (alike on purpose): both lifts compute the one set of figures
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    LiftFigures,
    LiftPlay,
    lift_figures,
    mark_unpaired,
)
from copilot_eval.lift.schedule import Slot, interleave, play_interleaved
from copilot_eval.runs.case_runner import session_usage
from copilot_eval.runs.checkpoint import Checkpoint
from copilot_eval.runs.finish import FinishOptions
from copilot_eval.runs.run_budget import RunBudget, RunSpending
from copilot_eval.runtime.session.runner import run_copilot
from copilot_eval.safe_paths import path_component
from copilot_eval.triggers import (
    Catalogue,
    CatalogueNeeds,
    PlayRecord,
    TriggerFigures,
    TriggerPrompt,
    TriggerRun,
    TriggerSet,
    decide_trigger_outcome,
    list_catalogue,
    summarise_triggers,
)
from copilot_eval.triggers.figures import play_key
from copilot_eval.triggers.record import write_trigger_folder
from copilot_eval.triggers.runner import trigger_player

__all__ = ["SkillLift", "TriggerLift", "trigger_arm_checkpoint_header", "trigger_lift"]


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
    slots: list[Slot[Any]] = field(default_factory=list, repr=False)  # the one queue of both arms, in order
    concurrency: int | None = None
    budget_reached: str | None = None  # the run budget that stopped the lift, with what was spent


def _difference(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


def _delivered(arm: Arm, run: TriggerRun) -> list[tuple[PlayRecord, str, str | None]]:
    """Each play with our delivery decision; an undelivered one is relabelled so the figures set it apart."""
    decided: list[tuple[PlayRecord, str, str | None]] = []
    for play in run.plays:
        result = run.results.get(play_key(play.number, play.repeat))
        delivery = decide_delivery(result, arm.expectations)
        if delivery.status == "not_delivered" and play.kind != "undelivered":
            play = replace(play, kind="undelivered", chosen=None, reason=delivery.reason or "not delivered")
        status: str = "not_delivered" if play.kind == "undelivered" else delivery.status
        decided.append((play, status, delivery.reason))
    return decided


def trigger_arm_checkpoint_header(trigger_set: TriggerSet, arm: Arm, runs: int) -> dict[str, Any]:
    """What an arm's checkpoint must match for ``--resume`` to continue it: the set, the arm and its texts."""
    return {
        "triggerLift": trigger_set.name,
        "arm": arm.name,
        "customizations": arm.customizations(),
        "runs": runs,
        "prompts": [[p.number, p.prompt, p.expected] for p in trigger_set.prompts],
        "names": list(trigger_set.names),
    }


def _names_in_arm(trigger_set: TriggerSet, arm: Arm) -> tuple[str, ...]:
    """The set's expected names this arm is meant to offer: a skill the arm must not carry is left out.

    The arm without a skill (``--vary skill:NAME``) lacks it by design, so its absence from that arm's
    catalogue is the variation being measured, not a setup problem that would set every play apart.
    """
    lacking = {e.text.name for e in arm.expectations if not e.present and e.text.kind == "skill-description"}
    return tuple(name for name in trigger_set.names if name not in lacking)


def _recorded(
    trigger_set: TriggerSet, arms: list[Arm], runs: int, evidence: dict[str, Path | None], resume: bool
) -> tuple[dict[str, Checkpoint], dict[str, dict[str, CopilotResult]]]:
    """Each arm's checkpoint, and the plays an earlier run of this lift recorded there (their saved evidence).

    A play the checkpoint names whose evidence cannot be read is played again: its outcome is decided
    from that evidence, so without it there is nothing to keep. CheckpointError (a ValueError) for a
    folder holding another run, or one holding this run without ``resume``.
    """
    checkpoints: dict[str, Checkpoint] = {}
    recorded: dict[str, dict[str, CopilotResult]] = {arm.name: {} for arm in arms}
    for arm in arms:
        where = evidence[arm.name]
        if where is None:
            continue
        header = trigger_arm_checkpoint_header(trigger_set, arm, runs)
        checkpoints[arm.name], done = Checkpoint.start(where.parent, header, resume=resume)
        for key in done:
            try:
                recorded[arm.name][key] = CopilotResult.load(where / f"{key}.json")
            except (OSError, ValueError):
                continue
    return checkpoints, recorded


class _ArmsTriggerPlay:
    """Both arms' trigger plays under way: each arm's evidence folder, checkpoint and player, and the plays so far."""

    def __init__(
        self, trigger_set: TriggerSet, arms: list[Arm], *, runs: int, folder: Path | None, pool: Any, budget: RunBudget
    ) -> None:
        self.trigger_set, self.arms, self.runs, self.folder, self.pool = trigger_set, arms, runs, folder, pool
        self.evidence = {arm.name: _folder(folder, arm) / "evidence" if folder is not None else None for arm in arms}
        for where in self.evidence.values():
            if where is not None:
                where.mkdir(parents=True, exist_ok=True)
        self.spending = RunSpending(budget)  # both arms' sessions together, those an earlier run played included
        self.checkpoints: dict[str, Checkpoint] = {}
        self.recorded: dict[str, dict[str, CopilotResult]] = {arm.name: {} for arm in arms}
        self.needs: dict[str, CatalogueNeeds] = {}
        self.players: dict[str, CopilotEval] = {}
        self.done: dict[str, list[tuple[PlayRecord, CopilotResult]]] = {arm.name: [] for arm in arms}

    def open_checkpoints(self, resume: bool) -> None:
        """Open each arm's checkpoint; with ``resume`` keep the plays it recorded (what they spent counts too)."""
        self.checkpoints, self.recorded = _recorded(self.trigger_set, self.arms, self.runs, self.evidence, resume)
        for results in self.recorded.values():
            for result in results.values():
                self.spending.add_session(session_usage(result))

    async def open_catalogues(self) -> list[Catalogue]:
        """Each arm's catalogue, and the player that stops at its choice among the names the arm must offer."""
        catalogues = await asyncio.gather(*(list_catalogue(arm.player(), pool=self.pool) for arm in self.arms))
        for arm, catalogue in zip(self.arms, catalogues, strict=True):
            self.needs[arm.name] = catalogue.needs(_names_in_arm(self.trigger_set, arm))
        self.players = {
            arm.name: trigger_player(arm.player(), self.needs[arm.name], stop_at_choice=True) for arm in self.arms
        }
        return catalogues

    def record(self, slot: Slot[tuple[TriggerPrompt, int]], result: CopilotResult, saved: str | None) -> None:
        """Decide a play's outcome from its result and keep it in its arm."""
        prompt, repeat = slot.unit
        outcome = decide_trigger_outcome(result, self.needs[slot.arm])
        kept = outcome.record(prompt, repeat, saved)
        self.done[slot.arm].append((kept, result))

    async def play(self, slot: Slot[tuple[TriggerPrompt, int]]) -> None:
        """Play one prompt in its arm, save its evidence, checkpoint it and record it."""
        prompt, _ = slot.unit
        result = await run_copilot(self.players[slot.arm], prompt.prompt, pool=self.pool)
        self.spending.add_session(session_usage(result))
        where = self.evidence[slot.arm]
        saved = str(result.save(where / f"{slot.key}.json")) if where is not None else None
        if slot.arm in self.checkpoints:
            self.checkpoints[slot.arm].append(slot.key, [])  # after its evidence is saved: --resume decides from it
        self.record(slot, result, saved)

    def record_resumed(self, slots: list[Slot[tuple[TriggerPrompt, int]]]) -> None:
        """Record the plays an earlier run of this lift kept, their outcomes decided again from their evidence."""
        for slot in slots:
            if slot.outcome == "resumed":
                where = self.evidence[slot.arm]
                assert where is not None  # only a folder's checkpoint records plays
                self.record(slot, self.recorded[slot.arm][slot.key], str(where / f"{slot.key}.json"))

    def arm_run(self, arm: Arm, catalogue: Catalogue, threshold: float, seconds: float) -> TriggerRun:
        """One arm's TriggerRun (not yet written): its plays in prompt order and their figures."""
        records = sorted((p for p, _ in self.done[arm.name]), key=lambda p: (p.number, p.repeat))
        figures = summarise_triggers(
            self.trigger_set.prompts, records, names=self.trigger_set.names, threshold=threshold
        )
        return TriggerRun(
            self.trigger_set,
            catalogue,
            records,
            figures,
            self.runs,
            True,
            seconds,
            _folder(self.folder, arm) if self.folder is not None else None,
            {play_key(p.number, p.repeat): r for p, r in self.done[arm.name]},
        )


async def _arm_runs(
    trigger_set: TriggerSet,
    arms: list[Arm],
    *,
    runs: int,
    threshold: float,
    concurrency: int,
    folder: Path | None,
    pool: Any,
    budget: RunBudget,
    resume: bool = False,
) -> tuple[dict[str, TriggerRun], list[Slot[tuple[TriggerPrompt, int]]], str | None, datetime]:
    """Every arm's plays through the one interleaved queue; each arm's TriggerRun (not yet written), the queue.

    With ``resume`` the plays each arm's checkpoint recorded are kept (their outcomes decided again
    from their saved evidence, as when they were played) and only the rest are played.
    """
    started, clock = datetime.now(UTC), time.monotonic()
    lift = _ArmsTriggerPlay(trigger_set, arms, runs=runs, folder=folder, pool=pool, budget=budget)
    lift.open_checkpoints(resume)  # refused before any session
    catalogues = await lift.open_catalogues()
    units = [(play_key(p.number, r), (p, r)) for p in trigger_set.prompts for r in range(runs)]
    slots = interleave(units, [arm.name for arm in arms])
    await play_interleaved(
        slots,
        lift.play,
        concurrency=concurrency,
        done=lambda slot: slot.key in lift.recorded[slot.arm],
        stop=lift.spending.reached if budget else None,
    )
    lift.record_resumed(slots)
    seconds = time.monotonic() - clock
    played = {
        arm.name: lift.arm_run(arm, catalogue, threshold, seconds)
        for arm, catalogue in zip(arms, catalogues, strict=True)
    }
    return played, slots, lift.spending.reason, started


def _folder(folder: Path, arm: Arm) -> Path:
    return folder / path_component(arm.name, fallback="arm")


def _lift_plays(
    decided: dict[str, list[tuple[PlayRecord, str, str | None]]], slots: list[Slot[tuple[TriggerPrompt, int]]]
) -> list[LiftPlay]:
    """Each arm's ``_delivered`` plays as the lift compares them, those a budget stopped ``not_run``, partners unpaired."""
    plays: list[LiftPlay] = []
    for arm, delivered in decided.items():
        for play, status, reason in delivered:
            # a setup problem (the expected skill not in this arm's catalogue) is named as such, never a miss
            outcome = ("pass" if play.chosen == play.expected else "fail") if play.kind == "chose" else play.kind
            unit = play_key(play.number, play.repeat)
            plays.append(LiftPlay(f"prompt{play.number}", arm, play.repeat, outcome, status, reason, unit=unit))
    for slot in slots:
        if slot.outcome == "not_run":
            prompt, repeat = slot.unit
            why = f"not played: {slot.reason}"
            plays.append(LiftPlay(f"prompt{prompt.number}", slot.arm, repeat, "not_run", "unknown", why, unit=slot.key))
    plays = mark_unpaired(plays, slots)
    plays.sort(key=lambda p: (int(p.case.removeprefix("prompt")), p.arm, p.repeat))
    return plays


def _skill_lifts(
    names: tuple[str, ...], a_figures: TriggerFigures, b_figures: TriggerFigures, control: str, treatment: str
) -> list[SkillLift]:
    """Each expected skill's precision and recall in both arms, and the treatment's difference from the control."""
    skills = []
    for name in names:
        a = next((s for s in a_figures.skills if s.name == name), None)
        b = next((s for s in b_figures.skills if s.name == name), None)
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
    return skills


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
    budget: RunBudget | None = None,
    resume: bool = False,
) -> TriggerLift:
    """Play ``trigger_set`` through both arms (control first) and compare precision, recall and each prompt's choice.

    The plays of both arms go through one interleaved queue, ``concurrency`` at a time
    (``lift.schedule``); ``budget`` caps both arms' sessions together, and a prompt's play left
    unplayed by it is ``not_run`` (its partner in the other arm ``unpaired``). ``finish`` says what
    finishing each arm's folder writes besides its data (``--scan``'s scanners). ``resume`` keeps
    the plays each arm's folder in ``out`` recorded and plays the rest (the figures are those of an
    uninterrupted lift); without it a folder holding an earlier lift is refused (CheckpointError).
    """
    check_two_arms(arms)
    if runs < 1 or concurrency < 1:
        raise ValueError(f"runs and concurrency must be at least 1 (got {runs}, {concurrency})")
    folder = Path(out) if out is not None else None
    if resume and folder is None:
        raise ValueError("--resume continues the lift recorded in --out DIR; give --out")
    budget = budget or RunBudget()
    played, slots, reached, started = await _arm_runs(
        trigger_set,
        arms,
        runs=runs,
        threshold=threshold,
        concurrency=concurrency,
        folder=folder,
        pool=pool,
        budget=budget,
        resume=resume,
    )
    if folder is not None:
        for arm in arms:
            run = played[arm.name]
            run.finished = write_trigger_folder(
                run, agent=arm.agent, started=started, options=finish or FinishOptions(no_history=True)
            )
    decided = {arm.name: _delivered(arm, played[arm.name]) for arm in arms}
    figures = {
        name: summarise_triggers(
            trigger_set.prompts, [p for p, _, _ in delivered], names=trigger_set.names, threshold=threshold
        )
        for name, delivered in decided.items()
    }
    plays = _lift_plays(decided, slots)
    control, treatment = arms[0].name, arms[1].name
    skills = _skill_lifts(trigger_set.names, figures[control], figures[treatment], control, treatment)
    paired = lift_figures(plays, control=control, treatment=treatment, seed=seed, resamples=resamples)
    return TriggerLift(arms, played, figures, skills, paired, slots, concurrency, reached)
