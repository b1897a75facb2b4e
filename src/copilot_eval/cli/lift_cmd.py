"""`copilot-eval lift SET --arm NAME=A.yaml --arm NAME=B.yaml` or `--agent A.yaml --vary SPEC`: does a customization help?

Plays the test set through both arms, interleaved, each play's delivery proven from its request
audit, and writes one run folder: a folder per arm (each a normal run folder) plus lift.json,
lift.md and lift.html. Exit codes (``copilot_eval.exit_codes``): 0 measured and every gate met,
1 below ``--min-lift`` (a lift that could not be measured never passes it), beyond
``--max-regression`` or a finding of a ``--fail-on-finding`` scanner in either arm, 2 bad input or an arm whose customization never reached the model,
3 nothing could be graded or a ``--max-run-*`` budget left plays unplayed (as ``run``), 130/143
interrupted (``--resume --out DIR`` continues).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.cli import interrupts
from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.history_record import NoHistoryOption, RecordHistoryOption
from copilot_eval.cli.options import (
    ConcurrencyOption,
    FailOnFindingOption,
    GraderOption,
    JudgeOption,
    MarkdownOption,
    MaxRunAiCreditsOption,
    MaxRunPremiumRequestsOption,
    MaxRunTokensOption,
    OutOption,
    ProtectOption,
    RepeatOption,
    ResumeOption,
    ScanOption,
    WorkspaceOption,
)
from copilot_eval.exit_codes import BELOW_GATE, PASSED, Verdict
from copilot_eval.reports.console import make_console
from copilot_eval.untrusted.terminal import terminal_line

if TYPE_CHECKING:
    from copilot_eval.evalsets import EvalTestSet
    from copilot_eval.lift import Arm, LiftGates, LiftRun
    from copilot_eval.runs.finish import FinishOptions
    from copilot_eval.runs.run_budget import RunBudget
    from copilot_eval.triggers import TriggerSet

DEFAULT_OUT = Path("lift-runs")


def _arms(arm_specs: list[str], agent_file: Path | None, vary: str | None) -> list[Arm]:
    # imported on use: the agent layer loads the Copilot SDK (about 0.6 s), which `--help` must not
    from copilot_eval.agent import load_agent_file
    from copilot_eval.lift import expectations_of, vary_arms

    if vary is not None:
        if agent_file is None or arm_specs:
            raise ValueError("--vary takes one --agent (and no --arm): the arms are that agent with and without it")
        return vary_arms(load_agent_file(agent_file), vary)
    if len(arm_specs) != 2 or agent_file is not None:
        raise ValueError("give two arms (--arm NAME=AGENT.yaml twice, control first), or --agent A.yaml --vary SPEC")
    agents = {}
    for spec in arm_specs:
        name, _, path = spec.partition("=")
        if not name.strip() or not path:
            raise ValueError(f"--arm {spec!r}: expected NAME=AGENT.yaml")
        if name in agents:
            raise ValueError(f"--arm {spec!r}: the arm {name!r} is named twice")
        if not Path(path).is_file():
            raise ValueError(f"--arm {spec!r}: agent file {path} not found")
        agents[name.strip()] = load_agent_file(Path(path))
    return expectations_of(agents)


def _print(run: LiftRun, markdown: str | None) -> None:
    # imported on use: rich's tables and the lift package are needed only once a run has finished
    from rich.table import Table

    from copilot_eval.lift.record import LIFT_HTML, LIFT_JSON, lift_markdown, verdict_words

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
    history: RecordHistoryOption = None,
    no_history: NoHistoryOption = False,
    scan: ScanOption = None,
    fail_on_finding: FailOnFindingOption = None,
    workspace: WorkspaceOption = None,
    protect: ProtectOption = None,
    resume: ResumeOption = False,
    max_run_tokens: MaxRunTokensOption = None,
    max_run_premium_requests: MaxRunPremiumRequestsOption = None,
    max_run_ai_credits: MaxRunAiCreditsOption = None,
) -> None:
    """Does a customization help? Play one test set (or trigger set) through two arms and compare them case by case.

    Each play's delivery is proven from the requests the runtime sent; a play whose customization
    did not reach the model (or reached the arm that must not have it) is counted apart (docs/lift.md).
    The plays of both arms are interleaved under one --concurrency; a --max-run-* budget counts both
    arms together and stops both at the same place; --resume continues the lift recorded in --out.
    """
    # imported on use: they load the Copilot SDK (about 0.6 s), which `--help` must not
    import asyncio

    from copilot_eval.agent import AgentFileError
    from copilot_eval.lift import ArmError, LiftGates, lift_eval
    from copilot_eval.runs.finish import FinishOptions
    from copilot_eval.runs.prepare import PrepareError
    from copilot_eval.runs.settings import RunSettings, SettingsError
    from copilot_eval.scans.choice import ScanChoiceError, choose_scanners, gate_names
    from copilot_eval.triggers import TriggerSet

    try:
        scanners = choose_scanners(scan)
        finding_gates = gate_names(fail_on_finding, scanners)
        arms = _arms(arm or [], agent_file, vary)
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
            max_run_tokens=max_run_tokens,
            max_run_premium_requests=max_run_premium_requests,
            max_run_ai_credits=max_run_ai_credits,
        )
        if isinstance(chosen, TriggerSet) and (workspace is not None or protect):
            raise ValueError("--workspace and --protect play a test set's cases; a trigger set's plays have none")
        if isinstance(chosen, TriggerSet) and resume:
            raise ValueError("--resume continues a test set's lift; a trigger set's lift is played again whole")
    except (AgentFileError, ArmError, PrepareError, SettingsError, ScanChoiceError, ValueError) as error:
        raise bad_input(str(error)) from None
    finish = FinishOptions(history=history, no_history=no_history, scanners=scanners, finding_gates=finding_gates)
    if isinstance(chosen, TriggerSet):
        # the arms' trigger folders record no history of their own (as before): the scanners reach them
        arm_finish = FinishOptions(no_history=True, scanners=scanners, finding_gates=finding_gates)
        budget = settings.budgets
        raise leave(_trigger_lift(chosen, arms, repeat, concurrency, seed, gates, out, arm_finish, budget))
    try:
        run = asyncio.run(lift_eval(chosen, arms, settings, seed=seed, gates=gates, finish=finish))
    except (PrepareError, ValueError) as error:  # CheckpointError too: another run in --out without --resume
        raise bad_input(str(error)) from None
    except KeyboardInterrupt:
        why = f"{interrupts.signal_name()}: the plays that finished are kept; continue with --resume --out {out}"
        raise leave(Verdict(interrupts.row(), why)) from None
    _print(run, markdown)
    raise leave(run.verdict)


def _read_set(path: Path) -> EvalTestSet | TriggerSet:
    """The test set at ``path`` (its cases' workspaces resolved against its folder, as `run` does), else the
    trigger set there; PrepareError naming both readers' problems."""
    # imported on use: the readers load the engine, which `--help` must not
    from copilot_eval.runs.prepare import PrepareError, read_test_set
    from copilot_eval.runs.workspaces import with_workspaces
    from copilot_eval.triggers import TriggerSetError, read_trigger_set

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
) -> Verdict:
    """Play a trigger set through both arms, print precision and recall per skill, write lift.json; the verdict."""
    # imported on use: they load the Copilot SDK (about 0.6 s), which `--help` must not
    import asyncio

    from rich.table import Table

    from copilot_eval.exit_codes import worst
    from copilot_eval.lift import lift_verdict, trigger_lift
    from copilot_eval.lift.engine import budget_verdict
    from copilot_eval.lift.record import verdict_words, write_trigger_lift

    try:
        lift = asyncio.run(
            trigger_lift(
                chosen, arms, runs=runs, concurrency=concurrency, seed=seed, out=out, finish=finish, budget=budget
            )
        )
    except KeyboardInterrupt:
        return Verdict(interrupts.row(), f"{interrupts.signal_name()}: the lift files were not written")
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
    # imported on use: the findings reader is needed only once the arms have been played
    from copilot_eval.reports.findings import read_findings

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
