"""`copilot-eval quickstart`: play the example stories through the real runtime and say what each showed."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

import typer
from rich.console import Console

from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.exit_codes import PASSED, PLATFORM, Verdict
from copilot_eval.first_steps.examples import ExamplesNotFound, copy_examples
from copilot_eval.first_steps.stories import (
    StoryOutcome,
    evaluation_story,
    run_process,
    studio_eval_story,
    suite_story,
    surfaces_story,
)
from copilot_eval.history.location import HISTORY_ENV
from copilot_eval.reports.console import make_console
from copilot_eval.reports.evidence_table import evidence_table
from copilot_eval.runtime.process.locate import locate_runtime
from copilot_eval.workdirs import QUICKSTART_PREFIX, new_working_directory


def quickstart(
    model: str = typer.Option(
        None, "--model", metavar="NAME", help="Play the example suite on this real model instead of its scripted one."
    ),
    provider_url: str = typer.Option(None, "--provider-url", metavar="URL", help="BYOK endpoint for --model"),
    api_key_env: str = typer.Option(None, "--api-key-env", metavar="NAME", help="env var holding the BYOK API key"),
    out: Path = typer.Option(
        None, "--out", metavar="DIR", help="where to write the evidence and the runs (default: a temp dir)"
    ),
    history: str = typer.Option(
        None,
        "--history",
        metavar="URL",
        help="record the quickstart's runs in this history (default: a temporary one in the output folder)",
    ),
) -> None:
    """Run the example suite and evaluations (offline, scripted models) and summarise what each showed."""
    console = make_console()
    # Without --out, a folder `copilot-eval clean` knows, marked in use while the stories play.
    output = (out or new_working_directory(QUICKSTART_PREFIX)).resolve()
    try:
        examples = copy_examples(output / "examples")
    except ExamplesNotFound as exc:
        raise bad_input(str(exc)) from None
    locate_runtime()  # installs it on first use, saying how far it is
    # The demo's runs go to a history of their own, never into the project the command is run from.
    recorded_in = history or f"sqlite:///{output / 'history.db'}"
    # Each story runs in the output folder: what its tools leave in their working directory
    # (pytest plugins' folders, default run folders) stays out of the folder the user is in.
    call = functools.partial(run_process, env={**os.environ, HISTORY_ENV: recorded_in}, cwd=output)
    extra = [f"--copilot-model={model}"] if model else []
    extra += [f"--copilot-provider-url={provider_url}"] if provider_url else []
    extra += [f"--copilot-api-key-env={api_key_env}"] if api_key_env else []
    stories = _play_stories(console, examples, output, extra, call, model_given=bool(model))
    console.print()
    console.print("[bold]What the quickstart showed[/bold]")
    for number, story in enumerate(stories, start=1):
        mark = "ok" if story.as_told else f"[red]not as told (exit {story.code})[/red]"
        console.print(f"  {number}. {story.title}: {mark}: {story.showed}")
    console.print(f"  the examples it played: {examples} (copy them, or start your own with copilot-eval init)")
    if out is None:
        console.print(f"  everything it wrote is in {output} (`copilot-eval clean` removes it after an hour)")
    console.print(f"  its runs are in the history {recorded_in} (copilot-eval history runs --history {recorded_in})")
    # A story that did not end as it is told says this machine cannot play it: the infrastructure's row.
    untold = [f"{number} (exit {story.code})" for number, story in enumerate(stories, start=1) if not story.as_told]
    raise leave(Verdict(PLATFORM, f"stories {', '.join(untold)} did not end as told") if untold else PASSED)


def _play_stories(
    console: Console,
    examples: Path,
    output: Path,
    extra: list[str],
    call: Callable[[list[str]], int],
    *,
    model_given: bool,
) -> list[StoryOutcome]:
    """Play the four stories in turn, each announced as it starts; the pytest suite's evidence shown as a table."""
    console.print(f"[bold]1. running[/bold] {examples / 'quickstart'} with pytest, through the real Copilot runtime")
    suite, written = suite_story(examples, output, extra, call)
    console.print(evidence_table(written))
    console.print(f"evidence JSON: {output}")
    if model_given:
        console.print("note: the stories below keep their scripted agents; --model applies to the suite above")
    console.print("[bold]2. evaluating[/bold] a test set with copilot-eval run")
    evaluation = evaluation_story(examples, output, call)
    console.print(
        "[bold]3. evaluating[/bold] a Copilot Studio agent on three surfaces "
        "(local fakes of Direct Line and the Agents SDK endpoint)"
    )
    surfaces = surfaces_story(examples, output, call)
    console.print(
        "[bold]4. evaluating[/bold] Raybot with Copilot Studio's own evaluation "
        "(copilot-eval studio-eval, a local fake of the evaluation REST API)"
    )
    studio = studio_eval_story(examples, output, call)
    return [suite, evaluation, surfaces, studio]


def register(app: typer.Typer) -> None:
    """Add the `quickstart` command."""
    app.command()(quickstart)
