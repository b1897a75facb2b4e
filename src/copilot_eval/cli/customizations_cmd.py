"""`copilot-eval customizations AGENT.yaml`: which instruction files, AGENTS.md and prompt files reach the model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.agent import AgentFileError, load_agent_file
from copilot_eval.cli.exits import bad_input, leave, platform_failed
from copilot_eval.cli.options import JsonOption
from copilot_eval.exit_codes import BELOW_GATE, Verdict
from copilot_eval.reports.console import make_console
from copilot_eval.reports.inspect_view import customization_table, plain
from copilot_eval.runtime.customization_check import CustomizationCheck, check_customizations


def customizations(
    agent_file: Annotated[
        Path, typer.Argument(metavar="AGENT.yaml", help="The agent file.", exists=True, dir_okay=False)
    ],
    workdir: Annotated[
        Path | None,
        typer.Option(
            "--workdir",
            help="The folder the agent works in (default: the agent file's working_directory, else this folder).",
            file_okay=False,
            exists=True,
        ),
    ] = None,
    # this command's own options, declared inline like generate's --knowledge, convert's and report's
    # options and each other (alike in shape only: each flag is declared once)
    touch: Annotated[
        list[str] | None,
        typer.Option(
            "--touch",
            metavar="PATH",
            help="A file the agent would work on (relative to --workdir), matched against applyTo globs; repeatable.",
        ),
    ] = None,
    expect: Annotated[
        list[str] | None,
        typer.Option(
            "--expect",
            metavar="FILE",
            help="A file (path or glob, as listed) that must reach the model; exit 1 when it did not. Repeatable.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """List the customization files the runtime loads for this agent in this folder, and why one was not sent.

    One scripted turn runs through the real runtime with the request audit on; no real model is
    called. Statuses: delivered, listed (named with its applyTo, its text left to the agent to
    read), not_applicable, not_delivered, malformed. See docs/customizations.md.
    """
    try:
        agent = load_agent_file(agent_file)
    except (AgentFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    folder = workdir or agent.working_directory or Path.cwd()
    check = asyncio.run(check_customizations(agent, working_directory=folder, touched=touch or [], expect=expect or []))
    document = check.to_json()
    if as_json:
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        _render(check)
    if document["error"] is not None:
        raise platform_failed(f"the runtime sent no request to read: {document['error']}")
    if check.missing:
        raise leave(Verdict(BELOW_GATE, "not delivered to the model: " + ", ".join(check.missing)))


def _render(check: CustomizationCheck) -> None:
    console = make_console()
    if check.files:
        console.print(customization_table(check.files))
    else:
        console.print(plain("No customization files found."))
    for pattern, delivered in check.expected.items():
        console.print(plain(f"expect {pattern}: {'delivered' if delivered else 'NOT delivered'}"))


def register(app: typer.Typer) -> None:
    """Add the `customizations` command to ``app``."""
    app.command("customizations")(customizations)
