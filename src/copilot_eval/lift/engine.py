"""lift_eval: play one test set through two arms, interleaved, and compare them case by case.

Every unit (a case or conversation, per repeat) is played in each arm before the next unit
starts its turn in the queue (case1-armA, case1-armB, case2-armA, ...), so time and load fall on
both arms alike; ``concurrency`` plays run at a time. Each arm gets the same graders, repeats and
budget, its own folder (``out/<arm>/``, finished by the one finisher), and each play's delivery is
decided from its request audit (``lift.delivery``). A case with a workspace is played in a fresh
copy of it in each arm (``runs.workspaces``), so neither arm sees what the other changed. The arm
name reaches no grader or judge.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import EvalCaseResult, EvalTestSet
from copilot_eval.exit_codes import worst
from copilot_eval.lift.arms import Arm
from copilot_eval.lift.delivery import Delivery, decide_delivery
from copilot_eval.lift.figures import DEFAULT_RESAMPLES, DEFAULT_SEED, LiftFigures, LiftPlay, lift_figures
from copilot_eval.lift.gates import LiftGates, lift_verdict
from copilot_eval.lift.record import write_lift_files
from copilot_eval.runs.case_runner import Unit, grade_unit, play_in_workspace, play_unit
from copilot_eval.runs.eval_runner import plan_units, summarise
from copilot_eval.runs.finish import Finished, FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.prepare import resolve_graders
from copilot_eval.runs.settings import HowToPlay, RunSettings
from copilot_eval.runs.workspaces import RunWorkspaces, uses_workspaces, with_workspaces, workspace_problems
from copilot_eval.safe_paths import path_component

__all__ = ["DEFAULT_LIFT_REPEAT", "LiftRun", "lift_eval"]

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
) -> LiftRun:
    """Play ``test_set`` through both ``arms`` (control first, treatment second), interleaved, and pair the results.

    ``settings`` say the graders (``grade``), ``play.repeat`` (each arm the same), ``play.concurrency``,
    ``finish.out`` (the run folder: one folder per arm plus lift.json, lift.md and lift.html) and
    ``play.workspace``/``play.protect`` (each play of either arm on a fresh copy of its case's fixture, as in ``run``); ``gates`` the
    lift's own gate. ValueError for a workspace that cannot be used, naming the case.
    """
    if len(arms) != 2 or arms[0].name == arms[1].name:
        raise ValueError(f"lift compares two arms with different names, got {[a.name for a in arms]}")
    settings = settings or RunSettings(play=HowToPlay(repeat=DEFAULT_LIFT_REPEAT))
    if settings.play.workspace is not None:
        test_set = with_workspaces(test_set, settings.play.workspace, None)
    workspaces = _workspaces(test_set, settings.play.protect)
    try:
        return await _lift(test_set, arms, settings, seed, resamples, gates, finish, pool, workspaces)
    finally:
        if workspaces is not None:
            workspaces.close()


def _workspaces(test_set: EvalTestSet, protect: tuple[str, ...]) -> RunWorkspaces | None:
    """The workspaces the arms' plays get a fresh copy of each (as ``run``'s), checked; None when no case has one."""
    if not uses_workspaces(test_set):
        if protect:
            raise ValueError("--protect: no case plays on a workspace; give --workspace DIR or a case workspace")
        return None
    problems = workspace_problems(test_set)
    if problems:
        raise ValueError("; ".join(problems))
    return RunWorkspaces(protect=protect)


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
) -> LiftRun:
    """The lift itself, every play of both arms (each in a fresh copy of its workspace when it has one)."""
    graders = resolve_graders(test_set, settings.grade)
    started, clock = datetime.now(UTC), time.monotonic()
    out = settings.finish.out
    folders = {arm.name: out / path_component(arm.name, fallback="arm") for arm in arms} if out else {}
    if len({str(f) for f in folders.values()}) < len(folders):
        raise ValueError(f"the arms {[a.name for a in arms]} would share one folder; give them other names")
    for folder in folders.values():
        (folder / "evidence").mkdir(parents=True, exist_ok=True)
    players = {arm.name: arm.player() for arm in arms}
    limit = asyncio.Semaphore(max(1, settings.play.concurrency))
    graded: dict[str, list[EvalCaseResult]] = {arm.name: [] for arm in arms}
    plays: list[LiftPlay] = []
    evidence_of: dict[str, dict[str, Any]] = {arm.name: {} for arm in arms}

    async def one(unit: Unit, arm: Arm) -> None:
        async with limit:
            if workspaces is not None:  # each arm's play on its own fresh copy: neither sees the other's edits
                evidence = await play_in_workspace(unit, players[arm.name], workspaces, pool=pool)
            else:
                evidence = await play_unit(unit, players[arm.name], pool=pool)
        folder = folders.get(arm.name)
        evidence_dir = folder / "evidence" if folder else None
        results = await grade_unit(unit, evidence, graders, evidence_dir=evidence_dir, workspaces=workspaces)
        delivery = decide_delivery(evidence, arm.expectations)
        graded[arm.name].extend(results)
        plays.extend(_play_record(arm, unit, results, evidence, delivery))
        evidence_of[arm.name][unit.key] = evidence

    units = plan_units(test_set, settings.play.repeat)
    # Interleaved: each unit in both arms before the next; the arm that goes first alternates.
    jobs = [(unit, arm) for index, unit in enumerate(units) for arm in (arms if index % 2 == 0 else arms[::-1])]
    await asyncio.gather(*(one(unit, arm) for unit, arm in jobs))
    order = {unit.key.split("#", 1)[0]: index for index, unit in enumerate(units)}
    plays.sort(key=lambda p: (order.get(p.case.split("/", 1)[0], 0), p.case, p.arm, p.repeat))
    figures = lift_figures(plays, control=arms[0].name, treatment=arms[1].name, seed=seed, resamples=resamples)
    run = LiftRun(
        test_set,
        arms,
        plays,
        figures,
        settings.play.repeat,
        out,
        results=evidence_of,
        order=[(u.key, a.name) for u, a in jobs],
    )
    duration = (time.monotonic() - clock) * 1000
    runs = {
        arm.name: summarise(
            test_set,
            graded[arm.name],
            agent_name=f"{arm.agent.name} ({arm.name})",  # each arm its own series in the history
            started=started,
            duration_ms=duration,
            platform_answers=False,
        ).model_copy(update={"repeat": settings.play.repeat})
        for arm in arms
    }
    lift = lift_verdict(figures, gates or LiftGates())
    if out is not None:
        items = [FolderRun(folders[a.name], runs[a.name], test_set, label=a.name) for a in arms]
        run.finished = finish_run_folders(items, replace(finish or FinishOptions(), markdown=None))
        write_lift_files(run, out)
        run.verdict = worst([run.finished.verdict, lift])
    else:
        run.verdict = lift
    return run
