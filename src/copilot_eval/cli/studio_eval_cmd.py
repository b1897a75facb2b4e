"""`copilot-eval studio-eval list|run|get`: Copilot Studio's own evaluations, driven from CI.

``list`` shows an agent's test sets (and with ``--runs`` its runs); ``run`` starts one run of a test
set on the draft (or ``--published``) agent, polls it, and writes a run folder; ``get RUN_ID`` reads
an existing run into a run folder without starting one; both add the run folder to the history
(``--history``, ``--no-history``; never a failure), where the platform's run id keeps it once.

Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes). Unusable
input (2) is an option, the export, an unsafe export join, unknown ids, missing credentials or
permissions; the platform (3) is a run already in progress, the daily run limit, HTTP 5xx including
the published 500, no response, a timeout, and what ``runs.gates`` decides for every run (a run that
did not complete, a runtime limitation, nothing graded).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.table import Table

from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.finished import finished_console, print_finished
from copilot_eval.cli.option_groups import FinishGroup, OptionGroup, takes_groups
from copilot_eval.cli.options import ClientIdOption, OutOption, TenantOption
from copilot_eval.commands.studio_eval import finish_studio, problem_verdict
from copilot_eval.evalsets import EvalSetError, read_results_export
from copilot_eval.history.records import SOURCE_STUDIO_EVAL
from copilot_eval.platform_runs import StudioInputError, StudioOptions, read_studio_run, start_studio_run
from copilot_eval.platform_runs.export_join import MODES
from copilot_eval.platform_runs.studio_flow import StudioOutcome
from copilot_eval.reports.console import make_console
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.reports.run_words import limitation_line
from copilot_eval.runs.finish import FinishOptions, finish_options
from copilot_eval.safe_paths import path_component
from copilot_eval.studio_eval import (
    StudioEvalClient,
    StudioEvalError,
    TokenProvider,
    progress_line,
    token_from_env,
    token_from_login,
)
from copilot_eval.untrusted.terminal import terminal_line, terminal_text

# The group and its aliases are declared as generate's and history's are (alike in shape only).
studio_app = typer.Typer(
    name="studio-eval",
    help="Copilot Studio's own evaluations through its REST API (test sets authored in the Evaluate tab).",
    no_args_is_help=True,
)

EnvironmentOption = Annotated[
    str,
    typer.Option("--environment-id", help="Power Platform environment id (the agent's Settings, Advanced, Metadata)."),
]
BotOption = Annotated[str, typer.Option("--bot-id", help="The agent's id (the agent's Settings, Advanced, Metadata).")]
ApiUrlOption = Annotated[
    str, typer.Option("--api-url", help="Power Platform API origin (sovereign clouds, local fakes).")
]
TokenEnvOption = Annotated[
    str | None,
    typer.Option("--token-env", metavar="VAR", help="Env var holding a user-delegated Power Platform API token."),
]
PollOption = Annotated[float, typer.Option("--poll-s", min=0, help="Seconds between polls of the run.")]
TimeoutOption = Annotated[float, typer.Option("--timeout-s", min=0, help="Give up waiting for the run after this.")]
ExportOption = Annotated[
    Path | None,
    typer.Option(
        "--export", metavar="RESULTS.csv", help="The Evaluate tab's results export of this run, for the text."
    ),
]
ExportMatchOption = Annotated[
    str,
    typer.Option(
        "--export-match", help="verified (by the AI's reasons, the default) or position (row order, unverified)."
    ),
]
ConfirmOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--confirm-with", metavar="RUN_DIR", help="Run folder of another surface that may confirm a limitation."
    ),
]


# Declared like the groups of cli/option_groups.py (alike in shape); these two are studio-eval's alone.
class AgentGroup(OptionGroup):
    """Which agent of which environment, and how to sign in to the Power Platform: every studio-eval command."""

    environment_id: EnvironmentOption
    bot_id: BotOption
    api_url: ApiUrlOption = "https://api.powerplatform.com"
    token_env: TokenEnvOption = None
    client_id: ClientIdOption = None
    tenant_id: TenantOption = None


class ReadingGroup(OptionGroup):
    """Where a platform run is written and what is read beside it (run, get); --timeout-s differs, so it is apart."""

    out: OutOption = None
    poll_s: PollOption = 20.0
    export: ExportOption = None
    export_match: ExportMatchOption = "verified"
    confirm_with: ConfirmOption = None


T = TypeVar("T")  # what a studio-eval coroutine gives back


def _client(agent: AgentGroup) -> StudioEvalClient:
    """The platform client for the agent, signed in by --token-env or else --client-id (one of them is needed)."""
    token: TokenProvider
    if agent.token_env:
        token, name = token_from_env(agent.token_env), agent.token_env
    elif agent.client_id:
        token, name = (
            token_from_login(client_id=agent.client_id, tenant_id=agent.tenant_id, api_url=agent.api_url),
            "POWER_PLATFORM_TOKEN",
        )
    else:
        raise bad_input(
            "give --token-env VAR (a variable holding a user-delegated Power Platform API token) or --client-id ID "
            "(the app registration `copilot-eval login --client-id ID` signed in with)",
        )
    return StudioEvalClient(
        environment_id=agent.environment_id, bot_id=agent.bot_id, token=token, token_name=name, api_url=agent.api_url
    )


def _read_inputs(reading: ReadingGroup) -> dict[str, Any]:
    """Everything checkable before a run is spent: the export, the confirming folders, the output folder."""
    export, export_match, confirm_with, out = reading.export, reading.export_match, reading.confirm_with, reading.out
    if export_match not in MODES:
        raise bad_input(f"--export-match {export_match!r}: expected one of {', '.join(MODES)}")
    if out is not None and (out / LAYOUT.run_json).exists():
        raise bad_input(f"--out {out} already holds a run (run.json); choose a new folder")
    found: dict[str, Any] = {"export_path": export, "export_match": export_match, "confirm_with": []}
    try:
        if export is not None:
            found["export_rows"] = read_results_export(export)
        found["confirm_with"] = [read_run_folder(path) for path in confirm_with or []]
    except EvalSetError as exc:
        raise bad_input(str(exc)) from None
    return found


def _finish(outcome: StudioOutcome, options: FinishOptions) -> None:
    """Print what the command did and exit by the verdict the finisher gave (or why there is no folder)."""
    console = finished_console(options.markdown)
    finished, verdict = finish_studio(outcome, options)
    run = outcome.run
    if finished is None or run is None:
        for line in outcome.lines:  # the platform's own words among them: text, never markup
            console.print(terminal_line(line), highlight=False)
        raise leave(verdict)
    record = run.platform_run
    lines = [*outcome.lines, f"run folder: {outcome.folder}"]
    if record is not None and record.run_id:
        lines.insert(0, f"platform run {record.run_id}: {record.state}")
    if not run.results:  # a refused run request: no table to show, only what was recorded and why
        lines += [*finished.folders[0].lines, *finished.history_lines, run.note or ""]
        lines += [line for line in [limitation_line(run)] if line]
        finished.folders[0].lines, finished.history_lines = [], []
        raise print_finished(finished, console, extra=lines, summaries=False)
    raise print_finished(finished, console, extra=lines)


# run's or get's way to bring the platform run into the folder, with the options chosen
Fetch = Callable[[StudioEvalClient, Path, StudioOptions], Coroutine[object, object, StudioOutcome]]


def _write_run(
    agent: AgentGroup,
    reading: ReadingGroup,
    finishing: FinishGroup,
    *,
    named: str,
    options: StudioOptions,
    fetch: Fetch,
) -> None:
    """Check the inputs, sign in, bring the run into --out (else eval-runs/NAMED-TIME), finish it and exit by it."""
    inputs = _read_inputs(reading)
    client = _client(agent)
    folder = reading.out or Path("eval-runs") / f"{named}-{datetime.now():%Y%m%d-%H%M%S}"
    chosen = replace(options, poll_s=reading.poll_s, **inputs)

    async def go() -> StudioOutcome:
        async with client:
            return await fetch(client, folder, chosen)

    _finish(_run_async(go), finish_options(finishing.values(), source=SOURCE_STUDIO_EVAL))


def _run_async(coroutine_factory: Callable[[], Coroutine[object, object, T]]) -> T:

    try:
        return asyncio.run(coroutine_factory())
    except StudioInputError as exc:
        raise bad_input(str(exc)) from None
    except StudioEvalError as exc:
        raise leave(problem_verdict(exc)) from None


@studio_app.command("list")
@takes_groups
def list_cmd(
    agent: AgentGroup,
    runs: Annotated[bool, typer.Option("--runs", help="Also list the runs the platform keeps (89 days).")] = False,
) -> None:
    """List the agent's test sets (and its runs with --runs); reads only, no run is started."""

    client = _client(agent)

    async def read() -> tuple[list[Any], list[Any]]:
        async with client:
            return await client.list_test_sets(), (await client.list_runs() if runs else [])

    sets, found_runs = _run_async(read)
    console = make_console()
    table = Table(title=f"test sets of bot {agent.bot_id}")
    for column in ("id", "name", "state", "cases", "modified (UTC)"):
        table.add_column(column, overflow="fold")
    for s in sets:  # names and states come from the platform, authored by others: cells of text, never markup
        modified = f"{s.modified_time:%Y-%m-%d %H:%M}" if s.modified_time else ""
        cases = "" if s.total_test_cases is None else str(s.total_test_cases)
        table.add_row(*(terminal_line(cell) for cell in (s.id, s.display_name or "", s.state or "", cases, modified)))
    console.print(table)
    if runs:
        for run in found_runs:
            line = f"{progress_line(run)}; test set {run.test_set_id}; name {run.name!r}"
            console.print(terminal_line(line), highlight=False)


@studio_app.command("run")
@takes_groups
def run_cmd(
    agent: AgentGroup,
    test_set: Annotated[
        str, typer.Option("--test-set", metavar="NAME_OR_ID", help="The test set's id or display name.")
    ],
    published: Annotated[
        bool, typer.Option("--published", help="Run the published agent (default: the draft).")
    ] = False,
    connection: Annotated[
        str | None,
        typer.Option("--connection", metavar="ID", help="Copilot Studio connection id (default: an anonymous run)."),
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Name of the run on the platform.")] = None,
    *,
    reading: ReadingGroup,
    timeout_s: TimeoutOption = 1800.0,
    finishing: FinishGroup,
) -> None:
    """Start one run of a test set on the platform, wait for it, and write its run folder."""

    options = StudioOptions(published=published, connection_id=connection, run_name=name, timeout_s=timeout_s)
    _write_run(
        agent,
        reading,
        finishing,
        named=f"studio-{_slug(test_set)}",
        options=options,
        fetch=lambda client, folder, chosen: start_studio_run(client, test_set, folder, chosen, say=_say),
    )


@studio_app.command("get")
@takes_groups
def get_cmd(
    run_id: Annotated[str, typer.Argument(metavar="RUN_ID", help="The platform's run id.")],
    *,
    agent: AgentGroup,
    reading: ReadingGroup,
    timeout_s: TimeoutOption = 0.0,
    finishing: FinishGroup,
) -> None:
    """Read an existing run into a run folder without starting one (--timeout-s waits for one still going)."""

    _write_run(
        agent,
        reading,
        finishing,
        named=f"studio-run-{_slug(run_id)[:12]}",
        options=StudioOptions(timeout_s=timeout_s),
        fetch=lambda client, folder, chosen: read_studio_run(client, run_id, folder, chosen, say=_say),
    )


def _say(line: str) -> None:
    typer.echo(terminal_text(line))  # the platform's states and names: shown, never obeyed


def _slug(text: str) -> str:

    return path_component(text, fallback="test-set")


def register(app: typer.Typer) -> None:
    """Add the `studio-eval` command group."""
    app.add_typer(studio_app, name="studio-eval")
