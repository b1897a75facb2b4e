"""`copilot-eval run SET --agent AGENT.yaml`: run a test set, grade it, write its run folder and report.

The options become one ``runs.settings.RunSettings`` (each option a field of the same name, checked
there); ``runs.plan.plan_run`` loads the set, every agent and the graders once; ``commands.run``
plays every surface and finishes each folder (``runs.finish``). This module parses and prints.

Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided
for each run by ``runs.gates``; with several ``--agent``, the worst surface's.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.finished import finished_console, print_finished
from copilot_eval.cli.option_groups import (
    BaselineGroup,
    CassetteGroup,
    ExecutorGroup,
    FinishGroup,
    GradingGroup,
    JudgeBudgetGroup,
    RunBudgetGroup,
    ScanGroup,
    flat,
    takes_groups,
)
from copilot_eval.cli.options import (
    AllowDraftsOption,
    ConcurrencyOption,
    DataTypeOption,
    GoldenOption,
    MaxRegressionsOption,
    ModelOption,
    OutOption,
    ProfileOption,
    ProtectOption,
    RepeatOption,
    ResumeOption,
    ShardOption,
    VarOption,
    WorkspaceOption,
)
from copilot_eval.cli.resumable import resumable_stops
from copilot_eval.cli.run_several import print_comparison
from copilot_eval.commands.run import finish_played, play_planned, release_runtimes, resumed_finished
from copilot_eval.evalsets.drafts import count_drafts
from copilot_eval.runs import CheckpointError
from copilot_eval.runs.plan import PlannedRun, plan_run
from copilot_eval.runs.prepare import PrepareError
from copilot_eval.runs.settings import SettingsError, settings_from
from copilot_eval.runs.surfaces import SurfaceRun
from copilot_eval.untrusted.terminal import terminal_text

# The parameters that are not fields of RunSettings: what is played, and how the progress is shown.
_NOT_SETTINGS = ("test_set_path", "agent_paths", "no_progress", "allow_drafts")


@takes_groups
def run(
    test_set_path: Annotated[
        Path, typer.Argument(metavar="SET", help="Test set: .csv, .json, .yaml, or a prompt file (*.prompt.yml).")
    ],
    agent_paths: Annotated[
        list[Path] | None,
        typer.Option(
            "--agent",
            help="Agent file (YAML) to evaluate; repeat it to "
            "compare several surfaces (one folder each under --out, plus comparison.json). A prompt file may "
            "run without one, on its own model.",
        ),
    ] = None,
    *,
    grading: GradingGroup,
    repeat: RepeatOption = 1,
    min_pass_rate: Annotated[
        float | None,
        typer.Option(
            "--min-pass-rate",
            min=0,
            max=100,
            help="Give each case one verdict over its --repeat tries: pass when at least this share of its "
            "graded tries passed (a fraction such as 0.8, or a percent such as 80); errors are not tries. "
            "Exit 1 when a case misses it.",
        ),
    ] = None,
    allow_replayed_repeats: Annotated[
        bool,
        typer.Option(
            "--allow-replayed-repeats",
            help="Run --repeat over --replay anyway: every try replays the same answers, and the run is "
            "marked as not independent.",
        ),
    ] = False,
    concurrency: ConcurrencyOption = 4,
    workspace: WorkspaceOption = None,
    protect: ProtectOption = None,
    out: OutOption = None,
    resume: ResumeOption = False,
    data_type: DataTypeOption = None,
    profile: ProfileOption = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No live progress bar.")] = False,
    finishing: FinishGroup,
    compared: BaselineGroup,
    allow_drafts: AllowDraftsOption = False,
    discard_passing_workdirs: Annotated[
        bool,
        typer.Option(
            "--discard-passing-workdirs", help="Remove the working directories of passing cases after grading."
        ),
    ] = False,
    cassettes: CassetteGroup,
    shard: ShardOption = None,
    placement: ExecutorGroup,
    scanning: ScanGroup,
    var: VarOption = None,
    model: ModelOption = None,
    # run's own options, declared inline like report's --history and convert's --preamble (alike in shape only)
    gate: Annotated[
        str | None,
        typer.Option(
            "--gate",
            metavar="NAME",
            help="As the run ends, gate it against the blessed baseline NAME ('auto': its own TEST_SET@AGENT): "
            "regressions exit 1; writes gate.md (docs/ci.md).",
        ),
    ] = None,
    golden: GoldenOption = None,
    max_regressions: MaxRegressionsOption = 0,
    gh_json: Annotated[
        Path | None,
        typer.Option(
            "--gh-json",
            metavar="FILE",
            help="A prompt file's run: also write gh-models' `--json` document (its `passed` by gh-models' rule).",
        ),
    ] = None,
    otel_endpoint: Annotated[
        str | None,
        typer.Option(
            "--otel-endpoint",
            metavar="URL",
            help="Export every case as an OpenTelemetry trace to this OTLP/HTTP collector (Phoenix, Jaeger, "
            "Langfuse, ...; /v1/traces is appended). Default: OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT. Needs the otel extra.",
        ),
    ] = None,
    otel_capture_content: Annotated[
        bool,
        typer.Option(
            "--otel-capture-content",
            help="Export message content too (questions, answers, tool arguments and results), redacted.",
        ),
    ] = False,
    run_budget: RunBudgetGroup,
    judge_budget: JudgeBudgetGroup,
) -> None:
    """Run a test set against an agent through the real runtime, grade it and record the run."""
    options = {**flat(locals()), "progress": not no_progress}  # every option is a field of RunSettings of its name

    try:
        settings = settings_from(options, drop=_NOT_SETTINGS)
        planned = plan_run(
            test_set_path,
            agent_paths or [],
            settings,
            say=_note,
        )
    except (SettingsError, PrepareError) as exc:
        raise bad_input(str(exc)) from None
    for line in planned.notes:
        _note(line)
    sidecar = _draft_cases(planned, test_set_path, allow_drafts)
    console = finished_console(settings.finish.markdown)
    _leave_if_finished(planned)
    runs = _with_drafts(_play(planned), planned, test_set_path, sidecar)
    if planned.several:
        print_comparison(planned.test_set, runs, console, planned.out)

    finished, lines = finish_played(planned, runs)  # --gate is decided inside the finisher
    raise print_finished(finished, console, extra=lines, summaries=not planned.several)


def _note(line: str) -> None:
    """A note of the plan on stderr: it names agents and files, so it is shown as text, never obeyed."""
    typer.echo(f"note: {terminal_text(line, one_line=False)}", err=True)


def _draft_cases(planned: PlannedRun, test_set_path: Path, allow_drafts: bool) -> bool:
    """Whether the set has a provenance sidecar; a set of drafts only is refused without ``--allow-drafts``."""

    try:
        found = count_drafts([case.question for case in planned.test_set.cases], test_set_path)
    except ValueError as exc:
        planned.close()
        raise bad_input(str(exc)) from None
    if found.all_drafts and not allow_drafts:
        planned.close()
        raise bad_input(
            f"{test_set_path}: every case is an unreviewed draft ({found.sidecar}); review them and set their "
            '"draft" to false, or give --allow-drafts to run them as they are'
        )
    return found.sidecar is not None


def _with_drafts(runs: list[SurfaceRun], planned: PlannedRun, test_set_path: Path, sidecar: bool) -> list[SurfaceRun]:
    """Each surface's run with ``draftCases`` (drafts among the cases it played: a shard's own part) recorded."""

    if not sidecar:
        return runs
    marked = []
    for played in runs:
        numbers = {result.conversation_number for result in played.run.results or []}
        questions = [case.question for case in planned.test_set.cases if case.conversation_number in numbers]
        drafts = count_drafts(questions, test_set_path).drafts  # read before the play: readable
        marked.append(replace(played, run=played.run.model_copy(update={"draft_cases": drafts})))
    return marked


def _leave_if_finished(planned: PlannedRun) -> None:
    """``--resume`` of a finished run: say so and exit by its recorded verdict, touching nothing."""

    try:
        resumed = resumed_finished(planned)
    except CheckpointError as exc:
        planned.close()
        raise bad_input(str(exc)) from None
    if resumed is not None:
        planned.close()
        verdict, lines = resumed
        for line in lines:
            typer.echo(line)
        raise leave(verdict)


def _play(planned: PlannedRun) -> list[SurfaceRun]:
    """Play the planned run; a stop (a foreign checkpoint, lost workers, a signal) ends the command by its row."""

    out = planned.out
    kept = f"finished cases are kept in {out}; continue with --resume --out {out}"
    try:
        with resumable_stops(planned.settings.play.executor, kept):
            return asyncio.run(play_planned(planned))
    except CheckpointError as exc:
        raise bad_input(str(exc)) from None
    finally:
        release_runtimes()  # a graceful stop now; the exit hook would only kill
        planned.close()


def register(app: typer.Typer) -> None:
    """Add the `run` command."""
    app.command(name="run")(run)
