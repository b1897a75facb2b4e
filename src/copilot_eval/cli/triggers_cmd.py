"""`copilot-eval triggers SET --agent A.yaml` and `copilot-eval skills A.yaml`: trigger evaluations of skills and custom agents.

`triggers` plays each prompt of a trigger set in fresh sessions of the agent through the real
runtime and writes a normal run folder (run.json, results.csv, evidence, report.html with the
confusion matrix, triggers.json; JUnit with ``--junit``, one test case per prompt). `skills` lists
the catalogue as the runtime loaded it. Exit codes (``copilot_eval.exit_codes``): 0 measured,
1 below ``--min-precision``/``--min-recall`` or a finding of a ``--fail-on-finding`` scanner, 2 bad input (or no play could count because the
catalogue could not be set up), 3 no play counted for the platform's reasons, a run budget left plays
unplayed (as in ``run``) or every Ray worker was lost, 130/143 interrupted. ``--shard``, ``--executor``
and the ``--max-run-*`` caps are ``run``'s own options (``cli/options.py``).
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from copilot_eval.agent import AgentFileError, load_agent_file
from copilot_eval.cli.exits import bad_input, leave, platform_failed
from copilot_eval.cli.option_groups import (
    # Partly the same names as run_cmd.py imports (alike on purpose): both take the shared groups and
    # options whole, from here and from cli/options.py.
    CassetteGroup,
    ExecutorGroup,
    HistoryGroup,
    RunBudgetGroup,
    ScanGroup,
    flat,
    takes_groups,
)
from copilot_eval.cli.options import (
    AllowDraftsOption,
    ConcurrencyOption,
    JsonOption,
    JunitOption,
    MinPrecisionOption,
    MinRecallOption,
    OutOption,
    ResumeOption,
    ShardOption,
)
from copilot_eval.cli.resumable import resumable_stops
from copilot_eval.evalsets.drafts import count_drafts
from copilot_eval.history.records import SOURCE_TRIGGERS
from copilot_eval.reports.console import make_console
from copilot_eval.runs.executor import Executor
from copilot_eval.runs.executor_choice import executor_of
from copilot_eval.runs.finish import finish_options
from copilot_eval.runs.settings import HowToFinish, HowToPlay, RunBudget, WhatToPlay
from copilot_eval.scans.choice import ScanChoiceError
from copilot_eval.triggers import (
    Catalogue,
    PlayRecord,
    TriggerRun,
    TriggerSetError,
    list_catalogue,
    read_trigger_set,
    trigger_eval,
)
from copilot_eval.triggers.gates import TriggerGates, parse_gate
from copilot_eval.untrusted.terminal import terminal_line

AgentOption = Annotated[
    Path,
    typer.Option("--agent", metavar="AGENT.yaml", help="The agent file.", exists=True, dir_okay=False),
]


def _share(value: float | None) -> str:
    """A share as a percentage, or ``unknown``."""
    return "unknown" if value is None else f"{value:.0%}"


def _print_run(run: TriggerRun) -> None:
    console = make_console()  # names come from other people's files: shown through the terminal sanitiser
    table = Table(title=terminal_line(f"Trigger set {run.trigger_set.name}: per skill (over prompts)"))
    for column in ("skill or agent", "precision", "recall", "F1", "TP", "FP", "FN"):
        table.add_column(column, overflow="fold")
    for skill in run.figures.skills:
        table.add_row(
            terminal_line(skill.name),
            _share(skill.precision),
            _share(skill.recall),
            _share(skill.f1),
            str(skill.true_positives),
            str(skill.false_positives),
            str(skill.false_negatives),
        )
    console.print(table)
    figures = run.figures
    apart = ", ".join(f"{n} {k}" for k, n in sorted(figures.apart.items())) or "none"
    console.print(
        terminal_line(
            f"{figures.correct} of {figures.counted} counted plays made the expected choice "
            f"({_share(figures.accuracy)}); near-miss false triggers {figures.near_miss_false_triggers} of "
            f"{figures.near_miss_counted}; apart from every rate: {apart}"
        ),
        highlight=False,
    )
    for line in _apart_lines(run):
        console.print(terminal_line(line), highlight=False)
    for entry in run.catalogue.entries:
        for problem in entry.problems:
            console.print(terminal_line(f"setup problem: {entry.kind} {entry.name}: {problem}"), highlight=False)
    if run.finished is not None:
        for folder in run.finished.folders:
            for line in folder.lines:
                console.print(terminal_line(line), highlight=False)
        for line in run.finished.history_lines:
            console.print(terminal_line(line), highlight=False)
        for line in run.finished.history_warnings:
            typer.echo(line, err=True)


def _numbers(plays: list[PlayRecord]) -> str:
    numbers = sorted({play.number for play in plays})
    return ("prompt " if len(numbers) == 1 else "prompts ") + ", ".join(str(n) for n in numbers)


def _apart_lines(run: TriggerRun) -> list[str]:
    """Why plays are apart from the rates: the shard played, the budget that stopped it, each undelivered reason."""
    lines = []
    if run.shard is not None:
        played = len({play.number for play in run.plays})
        lines.append(
            f"shard {run.shard.index}/{run.shard.count}: {played} of {len(run.trigger_set.prompts)} prompts; "
            "merge the shards' folders with `copilot-eval merge`"
        )
    if run.not_run:
        lines.append(
            f"{run.budget_reached or 'run budget reached'}: {len(run.not_run)} plays not played "
            f"({_numbers(run.not_run)}), counted apart from every rate"
        )
    undelivered: dict[str, list[PlayRecord]] = {}
    for play in run.plays:
        if play.kind == "undelivered":
            undelivered.setdefault(play.reason, []).append(play)
    for reason, plays in undelivered.items():  # the reason names the skills whose description was not sent
        lines.append(f"undelivered: {len(plays)} plays ({_numbers(plays)}): {reason}")
    return lines


@takes_groups
def triggers(
    trigger_set: Annotated[
        Path,
        typer.Argument(
            metavar="SET",
            help="The trigger set: .yaml/.yml/.json (ours or skill-creator's), or .csv (prompt,expected[,tags]).",
            exists=True,
            dir_okay=False,
        ),
    ],
    agent_file: AgentOption,
    skill: Annotated[
        str | None,
        typer.Option("--skill", metavar="NAME", help="The skill a skill-creator trigger file is about."),
    ] = None,
    runs: Annotated[
        int,
        typer.Option("--runs", "--repeat", min=1, metavar="N", help="Play every prompt N times (--repeat as in run)."),
    ] = 3,
    stop_at_choice: Annotated[
        bool,
        typer.Option(
            "--stop-at-choice/--no-stop-at-choice",
            help="End each play at its first skill or custom-agent call (the choice is what is measured).",
        ),
    ] = True,
    threshold: Annotated[
        float,
        typer.Option(
            "--threshold", min=0.01, max=1.0, help="A prompt passes when this share of its plays chose right."
        ),
    ] = 0.5,
    concurrency: ConcurrencyOption = 4,
    out: OutOption = None,
    junit: JunitOption = None,
    min_precision: MinPrecisionOption = None,
    min_recall: MinRecallOption = None,
    *,
    cassettes: CassetteGroup,
    recording: HistoryGroup,
    allow_drafts: AllowDraftsOption = False,
    scanning: ScanGroup,
    run_budget: RunBudgetGroup,
    shard: ShardOption = None,
    placement: ExecutorGroup,
    resume: ResumeOption = False,
) -> None:
    """Play a trigger set: does the model choose each skill or custom agent for its prompts, and only for them?

    Each prompt runs in a fresh session of the agent with its whole catalogue mounted and nothing
    added to the prompt; errors, setup problems and undelivered descriptions are counted apart
    from every rate (docs/skills.md).
    """
    try:
        # run's own settings groups check these options, with run's words (runs.settings)
        budget = RunBudget(**run_budget.values())
        play = HowToPlay(concurrency=concurrency, **placement.values(), **cassettes.values())
        shard_info = WhatToPlay(shard=shard).shard_info
        HowToFinish(out=out, resume=resume)
        agent = load_agent_file(agent_file)
        chosen = read_trigger_set(trigger_set, skill=skill)
        gates = TriggerGates(
            min_precision=parse_gate(min_precision or [], "--min-precision"),
            min_recall=parse_gate(min_recall or [], "--min-recall"),
        )
        scanners, finding_gates = scanning.chosen()
    except (AgentFileError, TriggerSetError, ScanChoiceError, ValueError) as error:
        raise bad_input(str(error)) from None
    _refuse_drafts_only(trigger_set, [p.prompt for p in chosen.prompts], allow_drafts)
    out = out or Path("trigger-runs") / f"{chosen.name}-{datetime.now():%Y%m%d-%H%M%S}"
    finish = finish_options(flat(locals()), source=SOURCE_TRIGGERS)
    try:
        with resumable_stops(placement.executor, _kept(out)):
            ray = _ray_executor(play)
            run = asyncio.run(
                trigger_eval(
                    agent,
                    chosen,
                    runs=runs,
                    stop_at_choice=stop_at_choice,
                    threshold=threshold,
                    concurrency=concurrency,
                    out=out,
                    finish=finish,
                    gates=gates,
                    **cassettes.values(),
                    budget=budget,
                    shard=shard_info,
                    executor=ray,
                    agent_file=agent_file,
                    resume=resume,
                )
            )
    except ValueError as error:
        raise bad_input(str(error)) from None
    _print_run(run)
    if run.finished is not None:
        raise leave(run.finished.verdict)


def _kept(out: Path) -> str:
    """What a run stopped before its folder was written leaves: the decided plays, kept for ``--resume``."""
    return f"no run folder was written; any play already decided is kept in {out}: continue with --resume --out {out}"


def _ray_executor(play: HowToPlay) -> Executor | None:
    """The Ray executor ``--executor ray`` names (ExecutorError when Ray is missing), None for local."""
    if play.executor == "local":
        return None  # trigger_eval plays in this process without an executor
    return executor_of(play, say=lambda line: typer.echo(terminal_line(f"note: {line}"), err=True))


def _refuse_drafts_only(trigger_set: Path, prompts: list[str], allow_drafts: bool) -> None:
    """Exit 2 when every prompt is an unreviewed draft of ``generate triggers`` and ``--allow-drafts`` is not given."""
    try:
        found = count_drafts(prompts, trigger_set)
    except ValueError as error:
        raise bad_input(str(error)) from None
    if found.all_drafts and not allow_drafts:
        raise bad_input(
            f"{trigger_set}: every prompt is an unreviewed draft ({found.sidecar}); review them and set their "
            '"draft" to false, or give --allow-drafts to play them as they are'
        )


def _catalogue_document(catalogue: Catalogue) -> dict[str, Any]:
    """``skills --json``: each entry as loaded, the loader's diagnostics and the built-in skills."""
    return {
        "entries": [
            {
                "name": e.name,
                "kind": e.kind,
                "descriptionLength": e.description_length,
                "source": e.source,
                "path": e.path,
                "enabled": e.enabled,
                "problems": list(e.problems),
            }
            for e in catalogue.entries
        ],
        "diagnostics": list(catalogue.diagnostics),
        "builtinSkills": list(catalogue.builtin_skills),
    }


def skills(
    agent_file: Annotated[
        Path, typer.Argument(metavar="AGENT.yaml", help="The agent file.", exists=True, dir_okay=False)
    ],
    as_json: JsonOption = False,
) -> None:
    """List the agent's skills and custom agents as the runtime loaded them: name, description length, source, problems.

    No real model is called: one session answered by a scripted model reads the loaded list.
    """
    try:
        agent = load_agent_file(agent_file)
        catalogue = asyncio.run(list_catalogue(agent))
    except (AgentFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    if as_json:
        typer.echo(json.dumps(_catalogue_document(catalogue), indent=2, ensure_ascii=False))
    else:
        console = make_console()
        table = Table(title=terminal_line(f"Catalogue of {agent.name} as the runtime loaded it"))
        for column in ("name", "kind", "description", "source", "problems"):
            table.add_column(column, overflow="fold")
        for e in catalogue.entries:
            length = "none" if e.description_length is None else f"{e.description_length} chars"
            cells = (e.name, e.kind, length, e.source or "unknown", "; ".join(e.problems) or "-")
            table.add_row(*(terminal_line(cell) for cell in cells))
        console.print(table)
        for line in catalogue.diagnostics:
            console.print(terminal_line(f"loader: {line}"), highlight=False)
    if not catalogue.entries and catalogue.diagnostics:
        raise platform_failed("; ".join(catalogue.diagnostics))
    if any(e.problems for e in catalogue.entries):
        raise bad_input(f"{sum(bool(e.problems) for e in catalogue.entries)} catalogue entries have problems")


def register(app: typer.Typer) -> None:
    """Add the `triggers` and `skills` commands to ``app``."""
    app.command("triggers")(triggers)
    app.command("skills")(skills)
