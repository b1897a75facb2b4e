"""`copilot-eval lift SET --arm NAME=A.yaml --arm NAME=B.yaml` or `--agent A.yaml --vary SPEC`: does a customization help?

Plays the test set through both arms, interleaved, each play's delivery proven from its request
audit, and writes one run folder: a folder per arm (each a normal run folder) plus lift.json,
lift.md and lift.html. Exit codes (``copilot_eval.exit_codes``): 0 measured and every gate met,
1 below ``--min-lift`` (a lift that could not be measured never passes it), beyond
``--max-regression`` or a finding of a ``--fail-on-finding`` scanner in either arm, 2 bad input or an arm whose customization never reached the model,
3 nothing could be graded or a ``--max-run-*``/``--max-judge-*`` budget left plays unplayed (as ``run``), 130/143
interrupted (``--resume --out DIR`` continues).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from copilot_eval.agent import AgentFileError, load_agent_file
from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.cli import interrupts
from copilot_eval.cli.exits import bad_input, leave, platform_failed
from copilot_eval.cli.option_groups import (
    ExecutorGroup,
    HistoryGroup,
    JudgeBudgetGroup,
    RunBudgetGroup,
    ScanGroup,
    flat,
    takes_groups,
)
from copilot_eval.cli.options import (
    ConcurrencyOption,
    GraderOption,
    JudgeOption,
    MarkdownOption,
    OutOption,
    ProtectOption,
    RepeatOption,
    ResumeOption,
    WorkspaceOption,
)
from copilot_eval.evalsets import EvalTestSet
from copilot_eval.exit_codes import BELOW_GATE, PASSED, Verdict, worst
from copilot_eval.lift import (
    Arm,
    ArmError,
    LiftGates,
    LiftRun,
    expectations_of,
    lift_eval,
    lift_verdict,
    trigger_lift,
    vary_arms,
)
from copilot_eval.lift.engine import budget_verdict
from copilot_eval.lift.record import LIFT_HTML, LIFT_JSON, lift_markdown, verdict_words, write_trigger_lift
from copilot_eval.reports.console import make_console
from copilot_eval.reports.findings import read_findings
from copilot_eval.runs.executor import AllWorkersLost, ExecutorError
from copilot_eval.runs.finish import FinishOptions, finish_options
from copilot_eval.runs.prepare import PrepareError, read_test_set
from copilot_eval.runs.run_budget import RunBudget
from copilot_eval.runs.settings import RunSettings, SettingsError
from copilot_eval.runs.workspaces import with_workspaces
from copilot_eval.scans.choice import ScanChoiceError
from copilot_eval.triggers import TriggerSet, TriggerSetError, read_trigger_set
from copilot_eval.untrusted.terminal import terminal_line

DEFAULT_OUT = Path("lift-runs")


def _arms(arm_specs: list[str], agent_file: Path | None, vary: str | None) -> tuple[list[Arm], dict[str, Path]]:
    """The two arms, and the agent file each was loaded or made from (what a Ray worker loads)."""
    if vary is not None:
        if agent_file is None or arm_specs:
            raise ValueError("--vary takes one --agent (and no --arm): the arms are that agent with and without it")
        arms = vary_arms(load_agent_file(agent_file), vary)
        return arms, {arm.name: agent_file for arm in arms}
    if len(arm_specs) != 2 or agent_file is not None:
        raise ValueError("give two arms (--arm NAME=AGENT.yaml twice, control first), or --agent A.yaml --vary SPEC")
    agents = {}
    sources = {}
    for spec in arm_specs:
        name, _, path = spec.partition("=")
        if not name.strip() or not path:
            raise ValueError(f"--arm {spec!r}: expected NAME=AGENT.yaml")
        if name in agents:
            raise ValueError(f"--arm {spec!r}: the arm {name!r} is named twice")
        if not Path(path).is_file():
            raise ValueError(f"--arm {spec!r}: agent file {path} not found")
        agents[name.strip()] = load_agent_file(Path(path))
        sources[name.strip()] = Path(path)
    return expectations_of(agents), sources


def _print(run: LiftRun, markdown: str | None) -> None:
    f = run.figures
    console = make_console()  # arm and case names are other people's text
    table = Table(title=terminal_line(f"Lift of {f.treatment} over {f.control} on {run.test_set.name}"))
    for column in ("case", f.control, f.treatment, "difference", "flipped"):
        table.add_column(terminal_line(column), overflow="fold")
    for case in f.cases:
        diff = "unknown" if case.difference is None else f"{case.difference * 100:+.0f}"
        table.add_row(
            terminal_line(case.case),
            f"{case.passes[f.control]}/{case.counted[f.control]}",
            f"{case.passes[f.treatment]}/{case.counted[f.treatment]}",
            diff,
            case.flip or "",
        )
    console.print(table)
    console.print(terminal_line(verdict_words(f)), highlight=False)
    if run.budget_reached is not None:
        console.print(terminal_line(run.budget_reached + ": both arms stopped there"), highlight=False)
    for arm in run.arms:
        for e in arm.expectations:
            if e.text.required:
                must = "must reach" if e.present else "must not reach"
                line = f"arm {arm.name}: {e.text.kind} {e.text.name} (sha256 {e.text.sha256[:12]}) {must} the model"
                console.print(terminal_line(line), highlight=False)
    for name, reasons in f.apart.items():
        if reasons:
            counts = ", ".join(f"{n} {k}" for k, n in sorted(reasons.items()))
            console.print(terminal_line(f"set apart in arm {name}: {counts}"), highlight=False)
    if run.folder is not None:
        console.print(terminal_line(f"lift: {run.folder / LIFT_JSON}, {run.folder / LIFT_HTML}"), highlight=False)
    if markdown == "-":
        typer.echo(lift_markdown(run))
    elif markdown:
        write_text_atomically(Path(markdown), lift_markdown(run))


@takes_groups
def lift(
    test_set: Annotated[
        Path,
        typer.Argument(
            metavar="SET", help="The test set (any format `run` reads), or a trigger set.", exists=True, dir_okay=False
        ),
    ],
    arm: Annotated[
        list[str] | None,
        typer.Option(
            "--arm", metavar="NAME=AGENT.yaml", help="An arm, twice: the control first, the treatment second."
        ),
    ] = None,
    agent_file: Annotated[
        Path | None,
        typer.Option("--agent", metavar="AGENT.yaml", help="With --vary: the agent both arms start from."),
    ] = None,
    vary: Annotated[
        str | None,
        typer.Option(
            "--vary",
            metavar="SPEC",
            help="What tells the arms apart: skill:NAME, instructions:FILE or description:SKILL=TEXT_FILE.",
        ),
    ] = None,
    repeat: RepeatOption = 3,
    grader: GraderOption = None,
    judge: JudgeOption = None,
    concurrency: ConcurrencyOption = 4,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap over cases (recorded).")] = 42,
    # lift's own options, declared inline like --agent above and history lift's --name (alike in shape only);
    # the options it shares with triggers come in the same order there, from cli/options.py
    min_lift: Annotated[
        float | None,
        typer.Option("--min-lift", metavar="SHARE", help="Exit 1 unless a measured lift is at least SHARE (0..1)."),
    ] = None,
    max_regression: Annotated[
        float | None,
        typer.Option("--max-regression", metavar="SHARE", help="Exit 1 on a measured regression beyond SHARE."),
    ] = None,
    out: OutOption = None,
    markdown: MarkdownOption = None,
    *,
    recording: HistoryGroup,
    scanning: ScanGroup,
    workspace: WorkspaceOption = None,
    protect: ProtectOption = None,
    resume: ResumeOption = False,
    run_budget: RunBudgetGroup,
    judge_budget: JudgeBudgetGroup,
    placement: ExecutorGroup,
) -> None:
    """Does a customization help? Play one test set (or trigger set) through two arms and compare them case by case.

    Each play's delivery is proven from the requests the runtime sent; a play whose customization
    did not reach the model (or reached the arm that must not have it) is counted apart (docs/lift.md).
    The plays of both arms are interleaved under one --concurrency; a --max-run-* budget counts both
    arms together and stops both at the same place; --resume continues the lift recorded in --out
    (a test set's or a trigger set's); --executor ray plays a test set's lift on a Ray cluster.
    """
    try:
        scanners, finding_gates = scanning.chosen()
        arms, sources = _arms(arm or [], agent_file, vary)
        gates = LiftGates(min_lift=min_lift, max_regression=max_regression)
        if resume and out is None:
            raise ValueError("--resume continues the lift recorded in --out DIR; give --out")
        out = out or DEFAULT_OUT / f"{test_set.stem}-{datetime.now():%Y%m%d-%H%M%S}"
        chosen = _read_set(test_set)
        settings = RunSettings.of(
            repeat=repeat,
            graders=tuple(grader or ()),
            judge=judge,
            concurrency=concurrency,
            out=out,
            workspace=workspace,
            protect=tuple(protect or ()),
            resume=resume,
            **run_budget.values(),
            **judge_budget.values(),
            **placement.values(),
        )
        if isinstance(chosen, TriggerSet):
            _refuse_for_trigger_sets(settings, placement, workspace_given=workspace is not None or bool(protect))
    except (AgentFileError, ArmError, PrepareError, SettingsError, ScanChoiceError, ValueError) as error:
        raise bad_input(str(error)) from None
    # --markdown is the lift's own lift.md (_print), so the arms' folders get no summary of their own
    finish = finish_options(flat(locals()), markdown=None)
    if isinstance(chosen, TriggerSet):
        # the arms' trigger folders record no history of their own (as before): the scanners reach them
        arm_finish = replace(finish, history=None, no_history=True)
        budget = settings.budgets
        raise leave(_trigger_lift(chosen, arms, repeat, concurrency, seed, gates, out, arm_finish, budget, resume))
    lifting = lift_eval(chosen, arms, settings, seed=seed, gates=gates, finish=finish, sources=sources)
    raise leave(_test_set_lift(lifting, out, placement.executor, markdown))


def _test_set_lift(
    lifting: Coroutine[object, object, LiftRun], out: Path, executor: str, markdown: str | None
) -> Verdict:
    """Play a test set's lift, print it (and write --markdown); its verdict, or the interrupt's (what finished kept)."""
    try:
        run = asyncio.run(lifting)
    except (PrepareError, ValueError) as error:  # CheckpointError too: another run in --out without --resume
        raise bad_input(str(error)) from None
    except AllWorkersLost as error:  # before ExecutorError, its parent: what finished is kept
        raise platform_failed(
            f"{error}; finished plays are kept in {out}; continue with --resume --out {out}"
        ) from None
    except ExecutorError as error:
        raise bad_input(f"--executor {executor}: {error}") from None
    except KeyboardInterrupt:
        why = f"{interrupts.signal_name()}: the plays that finished are kept; continue with --resume --out {out}"
        return Verdict(interrupts.row(), why)
    _print(run, markdown)
    return run.verdict


def _refuse_for_trigger_sets(settings: RunSettings, placement: ExecutorGroup, *, workspace_given: bool) -> None:
    """A trigger set's lift plays prompts on this machine and no judge grades them: ValueError for options that need more."""
    if workspace_given:
        raise ValueError("--workspace and --protect play a test set's cases; a trigger set's plays have none")
    if placement.executor != "local":
        raise ValueError("--executor ray plays a test set's lift; a trigger set's lift plays on this machine")
    if settings.budgets.caps_judges():
        raise ValueError("--max-judge-*: a trigger set's plays are decided by the skill chosen, no judge grades them")


def _read_set(path: Path) -> EvalTestSet | TriggerSet:
    """The test set at ``path`` (its cases' workspaces resolved against its folder, as `run` does), else the
    trigger set there; PrepareError naming both readers' problems."""
    try:
        return with_workspaces(read_test_set(path), None, path.parent)
    except PrepareError as as_test_set:
        try:
            return read_trigger_set(path)
        except (TriggerSetError, ValueError) as as_triggers:
            raise PrepareError(f"{as_test_set}\nnor a trigger set: {as_triggers}") from None


def _trigger_lift(
    chosen: TriggerSet,
    arms: list[Arm],
    runs: int,
    concurrency: int,
    seed: int,
    gates: LiftGates,
    out: Path,
    finish: FinishOptions,
    budget: RunBudget,
    resume: bool,
) -> Verdict:
    """Play a trigger set through both arms, print precision and recall per skill, write lift.json; the verdict."""
    try:
        lift = asyncio.run(
            trigger_lift(
                chosen,
                arms,
                runs=runs,
                concurrency=concurrency,
                seed=seed,
                out=out,
                finish=finish,
                budget=budget,
                resume=resume,
            )
        )
    except ValueError as error:  # CheckpointError: another lift in --out without --resume
        raise bad_input(str(error)) from None
    except KeyboardInterrupt:
        why = f"{interrupts.signal_name()}: the plays that finished are kept; continue with --resume --out {out}"
        return Verdict(interrupts.row(), why)
    written = write_trigger_lift(lift, chosen.name, out)
    console = make_console()  # skill and arm names are other people's text
    control, treatment = lift.paired.control, lift.paired.treatment
    table = Table(title=terminal_line(f"Trigger lift of {treatment} over {control} on {chosen.name}"))
    for column in ("skill", "precision", "recall", "precision difference", "recall difference"):
        table.add_column(column, overflow="fold")
    for skill in lift.skills:
        table.add_row(
            terminal_line(skill.name),
            f"{_share(skill.precision[control])} -> {_share(skill.precision[treatment])}",
            f"{_share(skill.recall[control])} -> {_share(skill.recall[treatment])}",
            _points(skill.precision_difference),
            _points(skill.recall_difference),
        )
    console.print(table)
    console.print(terminal_line("expected choice per prompt: " + verdict_words(lift.paired)), highlight=False)
    console.print(terminal_line(f"lift: {written}"), highlight=False)
    if lift.budget_reached is not None:
        console.print(terminal_line(lift.budget_reached + ": both arms stopped there"), highlight=False)
    verdicts = [lift_verdict(lift.paired, gates), budget_verdict(lift.budget_reached)]
    for name, played in lift.runs.items():
        for line in played.finished.folders[0].lines if played.finished is not None else []:
            if line.startswith("scans"):
                console.print(terminal_line(f"arm {name}: {line}"), highlight=False)
        verdicts.append(_finding_verdict(played.folder, finish.finding_gates))
    return worst(verdicts)


def _finding_verdict(folder: Path | None, gates: frozenset[str]) -> Verdict:
    """Below a gate when a ``--fail-on-finding`` scanner found anything in an arm's folder; passed otherwise."""
    if folder is None or not gates:
        return PASSED
    hit = {name: n for name, n in read_findings(folder).counts().items() if n and name in gates}
    if not hit:
        return PASSED
    found = ", ".join(f"{name} ({n})" for name, n in sorted(hit.items()))
    return Verdict(BELOW_GATE, f"--fail-on-finding: findings of {found} in {folder}")


def _share(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.0%}"


def _points(value: float | None) -> str:
    return "unknown" if value is None else f"{value * 100:+.1f} points"


def register(app: typer.Typer) -> None:
    """Add the `lift` command to ``app``."""
    app.command("lift")(lift)
