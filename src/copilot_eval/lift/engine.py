"""lift_eval: play one test set through two arms, interleaved, and compare them case by case.

Every unit (a case or conversation, per repeat) is queued in each arm before the next unit
(case1-armA, case1-armB, case2-armB, ...) and ``concurrency`` plays of either arm run at a time
(``lift.schedule``), so time and load fall on both arms alike; the order is recorded in lift.json.
Each arm gets the same graders, repeats and budget, its own folder (``out/<arm>/``, finished by the
one finisher, with a checkpoint ``--resume`` continues), and each play's delivery is decided from
its request audit (``lift.delivery``). A run budget counts both arms' sessions together; once it is
reached no play starts in either arm, and a unit played in one arm only is set apart (``unpaired``).
A case with a workspace is played in a fresh copy of it in each arm (``runs.workspaces``), so
neither arm sees what the other changed. The arm name reaches no grader or judge.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import EvalCaseResult, EvalTestSet
from copilot_eval.exit_codes import PASSED, PLATFORM, Verdict, worst
from copilot_eval.lift.arms import Arm, check_two_arms
from copilot_eval.lift.delivery import Delivery, decide_delivery
from copilot_eval.lift.figures import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    LiftFigures,
    LiftPlay,
    lift_figures,
    mark_unpaired,
)
from copilot_eval.lift.gates import LiftGates, lift_verdict
from copilot_eval.lift.record import LIFT_JSON, write_lift_files
from copilot_eval.lift.remote import ArmWorkers, remote_arms
from copilot_eval.lift.schedule import Slot, interleave, play_interleaved
from copilot_eval.reports.evidence_names import unit_evidence_name
from copilot_eval.runs.case_runner import (
    Unit,
    grade_unit,
    not_run_results,
    play_in_workspace,
    play_unit,
    session_usage,
)
from copilot_eval.runs.checkpoint import Checkpoint
from copilot_eval.runs.eval_runner import plan_units, summarise
from copilot_eval.runs.executor_choice import executor_of
from copilot_eval.runs.finish import Finished, FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.prepare import resolve_graders
from copilot_eval.runs.ray_executor import RayExecutor
from copilot_eval.runs.run_budget import RunSpending, usage_of
from copilot_eval.runs.settings import HowToPlay, RunSettings
from copilot_eval.runs.target import load_played
from copilot_eval.runs.workspaces import RunWorkspaces, uses_workspaces, with_workspaces, workspace_refusal
from copilot_eval.safe_paths import path_component

__all__ = ["DEFAULT_LIFT_REPEAT", "LiftRun", "budget_verdict", "checkpoint_header", "lift_eval"]

DEFAULT_LIFT_REPEAT = 3


@dataclass
class LiftRun:
    """A lift run: the arms, every play, the paired figures, each arm's finished folder and the verdict."""

    test_set: EvalTestSet
    arms: list[Arm]
    plays: list[LiftPlay]
    figures: LiftFigures
    repeat: int
    folder: Path | None = None
    finished: Finished | None = None
    verdict: Any = None  # copilot_eval.exit_codes.Verdict: the arms' folders' and the lift gates', the worst
    results: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)  # arm -> unit key -> evidence
    order: list[tuple[str, str]] = field(default_factory=list)  # (unit key, arm) in the order the plays were queued
    slots: list[Slot[Any]] = field(default_factory=list, repr=False)  # the queue, each place with its outcome
    concurrency: int | None = None  # plays of either arm at a time
    budget_reached: str | None = None  # the run budget that stopped the lift, with what was spent


def _play_record(
    arm: Arm, unit: Unit, graded: list[EvalCaseResult], evidence: Any, delivery: Delivery
) -> list[LiftPlay]:
    turns = getattr(evidence, "turns", None)
    assistant_turns = sum(t.role == "assistant" for t in turns) if turns is not None else None
    return [
        LiftPlay(
            case=unit.key.split("#", 1)[0] + (f"/{index + 1}" if len(graded) > 1 else ""),
            arm=arm.name,
            repeat=unit.repeat_index,
            status=str(result.effective_status),
            delivery=delivery.status,
            delivery_reason=delivery.reason,
            tokens=result.tokens,
            turns=assistant_turns,
            duration_ms=getattr(evidence, "duration_ms", None),
            ai_credits=result.ai_credits,
            unit=unit.key,
        )
        for index, result in enumerate(graded)
    ]


async def lift_eval(
    test_set: EvalTestSet,
    arms: list[Arm],
    settings: RunSettings | None = None,
    *,
    seed: int = DEFAULT_SEED,
    resamples: int = DEFAULT_RESAMPLES,
    gates: LiftGates | None = None,
    finish: FinishOptions | None = None,
    pool: Any = None,
    sources: dict[str, Path] | None = None,
) -> LiftRun:
    """Play ``test_set`` through both ``arms`` (control first, treatment second), interleaved, and pair the results.

    ``settings`` say the graders (``grade``), ``play.repeat`` (each arm the same), ``play.concurrency`` (plays of either
    arm at a time), ``finish.out`` (the run folder: one folder per arm plus lift.json, lift.md and
    report.html), ``finish.resume`` (keep the plays each arm's checkpoint in ``out`` recorded, play the
    rest), the run budgets (``budgets``) (both arms together) and
    ``play.workspace``/``play.protect`` (each play of either arm on a fresh copy of its case's fixture, as in
    ``run``); ``gates`` the lift's own gate. ValueError for a workspace that cannot be used, naming
    the case; CheckpointError (a ValueError) for a folder holding another run without ``resume``.
    With ``play.executor`` ``ray`` both arms' plays go to the cluster (``lift.remote``): ``sources``
    names the agent file each arm was loaded or made from (ExecutorError when Ray cannot play them).
    """
    check_two_arms(arms)
    settings = settings or RunSettings(play=HowToPlay(repeat=DEFAULT_LIFT_REPEAT))
    if settings.play.workspace is not None:
        test_set = with_workspaces(test_set, settings.play.workspace, None)
    if uses_workspaces(test_set) and any(e.text.kind == "instructions" for arm in arms for e in arm.expectations):
        raise ValueError(
            "an instruction file at the root of an arm's working directory never reaches a case played on a "
            "workspace (each play works in a fresh copy of its fixture): put the file in the fixture instead"
        )
    workspaces = _workspaces(test_set, settings.play.protect)
    try:
        ray: RayExecutor | None = None
        if settings.play.executor != "local":
            if workspaces is not None or settings.finish.out is None:
                raise ValueError(
                    "--executor ray plays a lift's cases without a workspace, into a lift folder (--out): "
                    "play a set with workspaces with --executor local"
                )
            chosen = executor_of(settings.play)
            assert isinstance(chosen, RayExecutor)  # the one other executor
            ray = chosen
        shipping = None if ray is None else (ray, sources or {})
        return await _lift(test_set, arms, settings, seed, resamples, gates, finish, pool, workspaces, shipping)
    finally:
        if workspaces is not None:
            workspaces.close()


def _workspaces(test_set: EvalTestSet, protect: tuple[str, ...]) -> RunWorkspaces | None:
    """The workspaces the arms' plays get a fresh copy of each (as ``run``'s), checked; None when no case has one."""
    if (refusal := workspace_refusal(test_set, protect)) is not None:
        raise ValueError(refusal)
    return RunWorkspaces(protect=protect) if uses_workspaces(test_set) else None


def checkpoint_header(test_set: EvalTestSet, arm: Arm, graders: list[Any], repeat: int) -> dict[str, Any]:
    """What an arm's checkpoint must match for ``--resume`` to continue it: the set, the arm and its texts."""
    return {
        "lift": test_set.name,
        "arm": arm.name,
        "customizations": arm.customizations(),
        "dataType": test_set.data_type.value,
        "repeat": repeat,
        "cases": [[c.conversation_number, c.question] for c in test_set.cases],
        "graders": [getattr(g, "name", type(g).__name__) for g in graders],
    }


def _resumed_evidence(folder: Path | None, unit: Unit) -> Any:
    """The saved evidence of a play an earlier run recorded (its delivery is decided again from it); None if lost."""
    if folder is None:
        return None
    path = folder / "evidence" / unit_evidence_name(unit.key)
    try:
        return load_played(path) if path.is_file() else None
    except ValueError:
        return None


class _ArmsPlay:
    """One lift under way: each arm's folder, checkpoint and player, what both spent, and the plays recorded so far."""

    def __init__(
        self,
        test_set: EvalTestSet,
        arms: list[Arm],
        settings: RunSettings,
        pool: Any,
        workspaces: RunWorkspaces | None,
    ) -> None:
        self.test_set, self.arms, self.settings, self.pool, self.workspaces = test_set, arms, settings, pool, workspaces
        self.graders = resolve_graders(test_set, settings.grade)
        self.started, self.clock = datetime.now(UTC), time.monotonic()
        out = settings.finish.out
        self.folders = {arm.name: out / path_component(arm.name, fallback="arm") for arm in arms} if out else {}
        if len({str(f) for f in self.folders.values()}) < len(self.folders):
            raise ValueError(f"the arms {[a.name for a in arms]} would share one folder; give them other names")
        if settings.finish.resume and out is None:
            raise ValueError("--resume continues the lift recorded in --out DIR; give --out")
        self.checkpoints: dict[str, Checkpoint] = {}
        self.done: dict[str, dict[str, list[EvalCaseResult]]] = {arm.name: {} for arm in arms}
        for arm in arms:
            folder = self.folders.get(arm.name)
            if folder is not None:
                (folder / "evidence").mkdir(parents=True, exist_ok=True)
                header = checkpoint_header(test_set, arm, list(self.graders), settings.play.repeat)
                self.checkpoints[arm.name], self.done[arm.name] = Checkpoint.start(
                    folder, header, resume=settings.finish.resume
                )
        self.by_name = {arm.name: arm for arm in arms}
        self.players = {arm.name: arm.player() for arm in arms}
        self.spending = RunSpending(settings.budgets)  # both arms' sessions together: the lift is one run
        for arm in arms:
            self.spending.add_all(self.done[arm.name].values())
        self.graded: dict[str, list[EvalCaseResult]] = {arm.name: [] for arm in arms}
        self.plays: list[LiftPlay] = []
        self.evidence_of: dict[str, dict[str, Any]] = {arm.name: {} for arm in arms}
        self.remote: ArmWorkers | None = None  # the Ray workers, once opened (``play_all``)

    def record(self, slot: Slot[Unit], results: list[EvalCaseResult], evidence: Any) -> None:
        """Count a unit's graded results in its arm, with the delivery decided from its evidence."""
        arm = self.by_name[slot.arm]
        if evidence is None:
            delivery = Delivery("unknown", "the evidence of this play was not kept; its delivery cannot be decided")
        else:
            delivery = decide_delivery(evidence, arm.expectations)
        self.graded[arm.name].extend(results)
        self.plays.extend(_play_record(arm, slot.unit, results, evidence, delivery))
        if evidence is not None:
            self.evidence_of[arm.name][slot.key] = evidence

    async def play(self, slot: Slot[Unit]) -> None:
        """Play one unit in its arm, grade it, checkpoint its results and record it."""
        unit, arm = slot.unit, slot.arm
        if self.remote is not None:  # on a Ray worker holding both arms, their audit on there
            evidence = await self.remote.play(arm, unit)
        elif self.workspaces is not None:  # each arm's play on its own fresh copy: neither sees the other's edits
            evidence = await play_in_workspace(unit, self.players[arm], self.workspaces, pool=self.pool)
        else:
            evidence = await play_unit(unit, self.players[arm], pool=self.pool)
        self.spending.add_session(session_usage(evidence))
        folder = self.folders.get(arm)
        results = await grade_unit(
            unit,
            evidence,
            self.graders,
            evidence_dir=folder / "evidence" if folder else None,
            workspaces=self.workspaces,
        )
        if arm in self.checkpoints:
            self.checkpoints[arm].append(unit.key, results)  # durable before it counts: --resume keeps it
        self.spending.add_judges(results)
        self.record(slot, results, evidence)

    def recorded(self, slot: Slot[Unit]) -> bool:
        """Whether an earlier run of this lift recorded the slot's play (``--resume`` keeps it)."""
        return slot.key in self.done[slot.arm]

    async def play_all(self, slots: list[Slot[Unit]], shipping: tuple[RayExecutor, dict[str, Path]] | None) -> None:
        """Play the queue, here or on the Ray workers; then record the resumed plays and those the budget stopped."""
        concurrency = self.settings.play.concurrency
        stop = self.spending.reached if self.settings.budgets else None
        if shipping is None:
            await play_interleaved(slots, self.play, concurrency=concurrency, done=self.recorded, stop=stop)
        else:  # opened once each arm's checkpoint has accepted its folder (the arms' agent files are written there)
            out = self.settings.finish.out
            assert out is not None
            ray, sources = shipping
            async with remote_arms(ray, self.arms, sources, out, concurrency=concurrency) as self.remote:
                await play_interleaved(
                    slots, self.play, concurrency=self.remote.capacity, done=self.recorded, stop=stop
                )
        for slot in slots:
            if slot.outcome == "resumed":
                evidence = _resumed_evidence(self.folders.get(slot.arm), slot.unit)
                self.record(slot, self.done[slot.arm][slot.key], evidence)
            elif slot.outcome == "not_run":
                results = not_run_results(slot.unit, slot.reason or "a run budget")
                delivery = Delivery("unknown", f"not played: {slot.reason}")
                self.graded[slot.arm].extend(results)
                self.plays.extend(_play_record(self.by_name[slot.arm], slot.unit, results, None, delivery))

    def lift_run(self, units: list[Unit], slots: list[Slot[Unit]], seed: int, resamples: int) -> LiftRun:
        """The plays in the set's order, unpaired where a budget stopped a partner, and their paired figures."""
        order = {unit.key.split("#", 1)[0]: index for index, unit in enumerate(units)}
        plays = mark_unpaired(self.plays, slots)
        plays.sort(key=lambda p: (order.get(p.case.split("/", 1)[0], 0), p.case, p.arm, p.repeat))
        control, treatment = self.arms[0].name, self.arms[1].name
        figures = lift_figures(plays, control=control, treatment=treatment, seed=seed, resamples=resamples)
        return LiftRun(
            self.test_set,
            self.arms,
            plays,
            figures,
            self.settings.play.repeat,
            self.settings.finish.out,
            results=self.evidence_of,
            order=[(slot.key, slot.arm) for slot in slots],
            slots=slots,
            concurrency=self.settings.play.concurrency,
            budget_reached=self.spending.reason,
        )

    def arm_summaries(self) -> dict[str, Any]:
        """Each arm's run record, as ``run`` would write it for that arm alone (each arm its own series)."""
        duration = (time.monotonic() - self.clock) * 1000
        reached = self.spending.reason
        return {
            arm.name: summarise(
                self.test_set,
                self.graded[arm.name],
                agent_name=f"{arm.agent.name} ({arm.name})",  # each arm its own series in the history
                started=self.started,
                duration_ms=duration,
                platform_answers=False,
            ).model_copy(
                update={
                    "repeat": self.settings.play.repeat,
                    "usage": usage_of(self.graded[arm.name], budget_reached=reached),
                }
            )
            for arm in self.arms
        }

    def finish(self, run: LiftRun, gates: LiftGates | None, finish: FinishOptions | None) -> None:
        """Finish each arm's folder and write the lift's files (with ``--out``); set the run's verdict."""
        runs = self.arm_summaries()
        lift = lift_verdict(run.figures, gates or LiftGates())
        out = self.settings.finish.out
        if out is None:
            run.verdict = worst([budget_verdict(self.spending.reason), lift])
            return
        items = [FolderRun(self.folders[a.name], runs[a.name], self.test_set, label=a.name) for a in self.arms]
        options = replace(finish or FinishOptions(), markdown=None)
        if all(slot.outcome == "resumed" for slot in run.slots) and (out / LIFT_JSON).is_file():
            options = replace(options, history=None, no_history=True)  # a finished lift resumed: recorded once
        # The lift gates' verdict is met before finishing, so the finisher alone decides the arms' verdict.
        run.finished = finish_run_folders(items, options, met=[lift])
        write_lift_files(run, out)
        run.verdict = run.finished.verdict


async def _lift(
    test_set: EvalTestSet,
    arms: list[Arm],
    settings: RunSettings,
    seed: int,
    resamples: int,
    gates: LiftGates | None,
    finish: FinishOptions | None,
    pool: Any,
    workspaces: RunWorkspaces | None,
    shipping: tuple[RayExecutor, dict[str, Path]] | None = None,
) -> LiftRun:
    """The lift itself, every play of both arms (each in a fresh copy of its workspace when it has one)."""
    lift = _ArmsPlay(test_set, arms, settings, pool, workspaces)
    units = plan_units(test_set, settings.play.repeat)
    slots = interleave([(unit.key, unit) for unit in units], [arm.name for arm in arms])
    await lift.play_all(slots, shipping)
    run = lift.lift_run(units, slots, seed, resamples)
    lift.finish(run, gates, finish)
    return run


def budget_verdict(reason: str | None) -> Verdict:
    """Exit 3 when a run budget stopped the lift (as ``run``: cases not run are no verdict on the agent)."""
    return PASSED if reason is None else Verdict(PLATFORM, f"cases were not run ({reason}): not a verdict on the agent")
