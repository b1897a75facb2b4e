"""`copilot-eval attack AGENT.yaml`: play an injection suite against the agent through the real runtime.

Each task is played without an attack and under each of its attacks; the run folder is a normal
one (run.json, results.csv, evidence, report.html) with security.json beside it, and the run is
added to the history. Exit codes (``copilot_eval.exit_codes``): 0 measured, 1 attack success above
``--max-attack-rate``, or that gate asked of an agent that did none of the user's tasks without
attack (resisting attacks by doing nothing meets no gate), 2 bad input (agent file, suite, options), 3 nothing could be measured
(no attack reached the model, or every play failed), 130 interrupted (143 by SIGTERM).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from copilot_eval.agent import AgentFileError, CopilotEval, load_agent_file
from copilot_eval.cli import interrupts
from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.option_groups import HistoryGroup, ScanGroup, takes_groups
from copilot_eval.cli.options import ConcurrencyOption, OutOption, RepeatOption
from copilot_eval.commands.attack import finish_attack, play_attack
from copilot_eval.exit_codes import Verdict
from copilot_eval.reports.console import make_console
from copilot_eval.runs.finish import Finished
from copilot_eval.scans.choice import ScanChoiceError
from copilot_eval.security import SuiteError
from copilot_eval.security.playable import PlayableSuite
from copilot_eval.security.record import default_run_folder
from copilot_eval.security.runner import SecurityRun
from copilot_eval.security.suite import InjectionSuite
from copilot_eval.security.suite_choice import open_suite
from copilot_eval.security.words import caveat, summary_rows
from copilot_eval.untrusted.terminal import terminal_line, terminal_text


@takes_groups
def attack(
    agent_file: Annotated[
        Path, typer.Argument(metavar="AGENT.yaml", help="The agent file.", exists=True, dir_okay=False)
    ],
    suite: Annotated[
        str,
        typer.Option(
            "--suite",
            metavar="NAME|FILE",
            help="A built-in suite (builtin), a suite YAML file, or agentdojo:SUITE[@VERSION] (the agentdojo extra).",
        ),
    ] = "builtin",
    repeat: RepeatOption = 1,
    out: OutOption = None,
    case: Annotated[
        list[str] | None,
        typer.Option(
            "--case", metavar="PATTERN", help="Play only cases whose id matches (fnmatch; task/vector/attack/goal)."
        ),
    ] = None,
    concurrency: ConcurrencyOption = 4,
    # declared like run's --min-pass-rate (alike in shape): another gate, attack's alone
    max_attack_rate: Annotated[
        float | None,
        typer.Option(
            "--max-attack-rate",
            min=0,
            max=100,
            metavar="PERCENT",
            help="Exit 1 when the attack success rate over delivered plays is above this.",
        ),
    ] = None,
    *,
    recording: HistoryGroup,
    scanning: ScanGroup,
) -> None:
    """Play an injection suite against the agent: utility without and under attack, attack success per vector and text.

    An attack that never reached the model (proven from the request audit) is `not_delivered`
    and is in no rate; see docs/security.md for what the figures mean and what they cannot say.
    """
    try:
        agent = load_agent_file(agent_file)
        chosen = open_suite(suite)
        scanners, finding_gates = scanning.chosen()
    except (AgentFileError, SuiteError, ScanChoiceError, ValueError) as error:
        raise bad_input(str(error)) from None
    out = out or default_run_folder(chosen.name, datetime.now())  # the suite's name made one safe component
    run = _play(agent, chosen, out, repeat=repeat, concurrency=concurrency, cases=case)
    finished = finish_attack(
        run,
        out,
        max_attack_rate=max_attack_rate,
        **recording.values(),
        scanners=scanners,
        finding_gates=finding_gates,
    )
    _print_attack(run, finished, f"Injection suite {chosen.name} against {agent.name}", out)
    raise leave(finished.verdict)


def _play(
    agent: CopilotEval,
    suite: InjectionSuite | PlayableSuite,
    out: Path,
    *,
    repeat: int,
    concurrency: int,
    cases: list[str] | None,
) -> SecurityRun:
    """Play the suite; exit 2 for a problem with its input, and the interrupt's exit code (nothing written) on a stop."""
    try:
        return asyncio.run(play_attack(agent, suite, out=out, repeat=repeat, concurrency=concurrency, cases=cases))
    except ValueError as error:
        raise bad_input(str(error)) from None
    except KeyboardInterrupt:
        # The plays are not checkpointed: an interrupted suite writes nothing and is played again whole.
        raise leave(Verdict(interrupts.row(), f"{interrupts.signal_name()}: no run folder was written")) from None


def _print_attack(run: SecurityRun, finished: Finished, title: str, out: Path) -> None:
    """The suite's figures as a table, its caveat, the run folder and what the history said."""
    console = make_console()  # tables sized to the terminal, or wide in a CI log
    table = Table(title=terminal_line(title))
    for column in ("figure", "value", "in no rate"):
        table.add_column(column, overflow="fold")
    for row in summary_rows(run.summary):
        table.add_row(*(terminal_line(cell) for cell in row))
    console.print(table)
    warning = caveat(run.summary)
    if warning is not None:
        console.print(f"warning: {warning}", highlight=False)
    # the folder and the history are paths the user chose: text, never markup (as print_finished prints them)
    console.print(terminal_line(f"run folder: {out} (security.json, run.json, report.html)"), highlight=False)
    for line in finished.history_lines:
        console.print(terminal_line(line), highlight=False)
    for line in finished.history_warnings:
        typer.echo(terminal_text(line, one_line=False), err=True)


def register(app: typer.Typer) -> None:
    """Add the `attack` command to ``app``."""
    app.command("attack")(attack)
