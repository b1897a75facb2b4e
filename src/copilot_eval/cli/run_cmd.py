"""`copilot-eval run SET --agent AGENT.yaml`: run a test set, grade it, write run.json, results.csv and report.html.

Exit codes: the table of ``copilot_eval.exit_codes`` (docs/evaluation-runs.md#exit-codes), decided
for each run by ``runs.gates``; with several ``--agent``, the worst surface's.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from copilot_eval.cli import interrupts
from copilot_eval.cli.clean_cmd import discard_passing_workdirs
from copilot_eval.cli.exits import bad_input as _bad_input
from copilot_eval.cli.exits import leave, platform_failed
from copilot_eval.cli.finished import print_finished
from copilot_eval.cli.history_record import NoHistoryOption, RecordHistoryOption
from copilot_eval.cli.options import (
    BaselineOption,
    FailOnRegressionOption,
    FailUnderOption,
    JunitOption,
    MarkdownOption,
)

EXECUTORS = ("local", "ray")


def _profile_option(profile: str | None) -> str | None:
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.evalsets import RULE_SETS

    if profile is not None and profile not in RULE_SETS:
        raise _bad_input(f"--profile {profile!r}: expected one of {', '.join(RULE_SETS)}")
    return profile


def _fraction(value: float | None) -> float | None:
    """``--min-pass-rate`` as a fraction: 0.8 stays 0.8, 80 becomes 0.8 (1 is all tries)."""
    if value is None:
        return None
    return value / 100 if value > 1 else value


def _otel_export(endpoint: str | None, capture_content: bool, test_set: str, surface: str | None) -> Any:
    """The run's OpenTelemetry exporter, or ``None`` when no endpoint option or variable asks for one."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.otel import OtelSettingsError, RunExporter, resolve_otel_settings

    try:
        settings = resolve_otel_settings(endpoint, capture_content=capture_content)
        return RunExporter(settings, test_set=test_set, surface=surface) if settings is not None else None
    except (OtelSettingsError, RuntimeError) as exc:
        raise _bad_input(str(exc)) from None


def run(
    test_set_path: Annotated[
        Path, typer.Argument(metavar="SET", help="Test set: .csv, .json, or a prompt file (*.prompt.yml).")
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
    grader: Annotated[
        list[str] | None,
        typer.Option(
            "--grader",
            help="Grader spec, repeatable: exact, "
            "keywords:all:a,b, similarity:0.7, capability:tool:NAME, trajectory:FILE, compare_meaning[:50], "
            "general_quality, labels:ok=pass,bad=fail. Default: similarity.",
        ),
    ] = None,
    judge_path: Annotated[Path | None, typer.Option("--judge", help="Judge agent file for LLM graders.")] = None,
    judge_repeat: Annotated[
        int,
        typer.Option(
            "--judge-repeat",
            min=1,
            help="Ask each LLM judge J times per answer: the majority decides, disagreement marks the case "
            "'judge unstable'.",
        ),
    ] = 1,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Play every case N times (pass@k, pass^k).")] = 1,
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
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Sessions run in parallel.")] = 4,
    out: Annotated[Path | None, typer.Option("--out", help="Output directory (default: eval-runs/SET-TIME).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the interrupted run recorded in --out.")] = False,
    fail_under: FailUnderOption = None,
    data_type: Annotated[str | None, typer.Option("--data-type", help="Override: SingleTurn or Conversation.")] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="Rule set the set is checked against: copilot-studio (today's templates, the default) or seed.",
        ),
    ] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No live progress bar.")] = False,
    junit: JunitOption = None,
    markdown: MarkdownOption = None,
    baseline: BaselineOption = None,
    fail_on_regression: FailOnRegressionOption = False,
    discard_passing: Annotated[
        bool,
        typer.Option(
            "--discard-passing-workdirs", help="Remove the working directories of passing cases after grading."
        ),
    ] = False,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Record the agent's live model calls to cassettes in DIR, one per case (docs/replay.md)."
        ),
    ] = None,
    replay: Annotated[
        Path | None, typer.Option("--replay", help="Answer the agent's model from the cassettes in DIR, offline.")
    ] = None,
    record_missing: Annotated[
        bool,
        typer.Option(
            "--record-missing", help="With --record: keep DIR's cassettes and record only the calls they lack."
        ),
    ] = False,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            metavar="I/N",
            help="Play only shard I of N (whole conversations, assigned from the set's content); "
            "merge the shards' folders with `copilot-eval merge`.",
        ),
    ] = None,
    executor: Annotated[
        str,
        typer.Option(
            "--executor",
            help="Where sessions are played: local (this process) or ray (one worker per Ray node, "
            "--concurrency each; needs the ray extra).",
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            metavar="ADDR",
            help="With --executor ray: the cluster (host:port, ray://host:10001, or auto); default: RAY_ADDRESS, else a local Ray.",
        ),
    ] = None,
    ray_workers: Annotated[
        int | None,
        typer.Option(
            "--ray-workers",
            min=1,
            metavar="N",
            help="With --executor ray: use at most N nodes (default: every node with a CPU).",
        ),
    ] = None,
    history: RecordHistoryOption = None,
    no_history: NoHistoryOption = False,
    var: Annotated[
        list[str] | None,
        typer.Option(
            "--var",
            metavar="NAME=VALUE",
            help="A prompt file's {{NAME}} placeholders: the value of a file without testData, or under each "
            "row's own (as `gh models run --var`), repeatable.",
        ),
    ] = None,
    prompt_pass_score: Annotated[
        list[str] | None,
        typer.Option(
            "--prompt-pass-score",
            metavar="[NAME=]MARK",
            help="A prompt file's LLM evaluators pass at this share of the top choice score (0.6 or 60; NAME=0.6 "
            "for one evaluator), repeatable. Default: half the top score, four stars of five for github/ built-ins.",
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            metavar="NAME",
            help="The session model, over the agent file's and a prompt file's (a runtime model name, e.g. gpt-4.1).",
        ),
    ] = None,
    gate: Annotated[
        str | None,
        typer.Option(
            "--gate",
            metavar="NAME",
            help="As the run ends, gate it against the blessed baseline NAME ('auto': its own TEST_SET@AGENT): "
            "regressions exit 1; writes gate.md (docs/ci.md).",
        ),
    ] = None,
    golden: Annotated[
        Path | None,
        typer.Option("--golden", metavar="FILE", help="With --gate: case keys (one a line) no regression may touch."),
    ] = None,
    max_regressions: Annotated[
        int,
        typer.Option("--max-regressions", metavar="N", help="With --gate: regressions allowed besides golden cases."),
    ] = 0,
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
) -> None:
    """Run a test set against an agent through the real runtime, grade it and record the run."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.history.records import SOURCE_RUN
    from copilot_eval.reports.console import make_console
    from copilot_eval.runs import CheckpointError, run_eval_set
    from copilot_eval.runs.executor import AllWorkersLost, ExecutorError
    from copilot_eval.runs.finish import STDOUT, FinishOptions, FolderRun, baseline_problem, finish_run_folders
    from copilot_eval.runs.gates import Gates
    from copilot_eval.runs.independence import refuse_replayed_repeats
    from copilot_eval.runs.prepare import PrepareError, prepare_run

    if data_type not in (None, "SingleTurn", "Conversation"):
        raise _bad_input(f"--data-type {data_type!r}: expected SingleTurn or Conversation")
    shard_info = _shard_option(shard)
    run_executor = _executor_option(
        executor,
        ray_address,
        ray_workers,
        recording=bool(record or replay or record_missing),
        discard=discard_passing,
    )
    refusal = refuse_replayed_repeats(
        repeat, replaying=replay is not None, allowed=allow_replayed_repeats, option="--allow-replayed-repeats"
    )
    if refusal is not None:
        raise _bad_input(refusal)
    rate = _fraction(min_pass_rate)
    agent_paths = agent_paths or []
    try:
        prepared = prepare_run(
            test_set_path,
            agent_paths[0] if agent_paths else None,
            grader_specs=grader,
            judge_path=judge_path,
            profile=_profile_option(profile),
            data_type=data_type,
            judge_repeat=judge_repeat,
            variables=_variables(var),
            pass_scores=prompt_pass_score,
            model=model,
        )
    except PrepareError as exc:
        raise _bad_input(str(exc)) from None
    if gh_json is not None and prepared.test_set.prompt_file is None:
        raise _bad_input("--gh-json: gh-models' output describes a prompt file's run; the set is not one")
    for line in _prompt_notes(prepared):
        typer.echo(f"note: {line}", err=True)
    if len(agent_paths) <= 1 and (problem := baseline_problem(baseline)) is not None:
        raise _bad_input(problem)  # several surfaces: checked once their labels are known
    if gate is None and (golden is not None or max_regressions):
        raise _bad_input("--golden and --max-regressions gate the run: give --gate NAME (or --gate auto) with them")
    if gate is not None and len(agent_paths) > 1:
        raise _bad_input("--gate takes one --agent: gate each surface's folder with `copilot-eval gate RUN_DIR`")
    test_set, agent = prepared.test_set, prepared.agent
    if record or replay or record_missing:
        if len(agent_paths) > 1:
            raise _bad_input("--record/--replay take one --agent (cassettes are per case of one agent)")
        # imported on use: every command module loads with `--help` (see app.py)
        from copilot_eval.evalsets.prompt_cases import played_prompt
        from copilot_eval.models.replay.wrap import with_test_set_cassettes
        from copilot_eval.runs.target import runtime_agent

        if runtime_agent(agent) is None:
            raise _bad_input(
                f"--record/--replay: {agent_paths[0] if agent_paths else 'the agent'} is a Copilot Studio target; cassettes record "
                "the model calls of a Copilot runtime agent (a target's raw activities are kept in "
                "its evidence, and `copilot-eval regrade` grades them again)"
            )

        try:
            agent = with_test_set_cassettes(
                agent, test_set, record=record, replay=replay, record_missing=record_missing, prompt_of=played_prompt
            )
        except ValueError as exc:
            raise _bad_input(str(exc)) from None
    if resume and out is None:
        raise _bad_input("--resume needs --out naming the run directory to continue")
    out = out or Path("eval-runs") / f"{test_set_path.stem}-{datetime.now():%Y%m%d-%H%M%S}"
    export = _otel_export(otel_endpoint, otel_capture_content, test_set.name, getattr(agent, "name", None))
    out.mkdir(parents=True, exist_ok=True)
    console = make_console(stderr=markdown == STDOUT)
    spread = {"shard": shard_info, "fingerprints": prepared.fingerprints, "executor": run_executor}
    finish = FinishOptions(
        junit=junit,
        markdown=markdown,
        baseline=baseline,
        history=history,
        no_history=no_history,
        source=SOURCE_RUN,
        gates=Gates(fail_under=fail_under, fail_on_regression=fail_on_regression),
    )
    if len(agent_paths) > 1:
        _run_several(
            test_set,
            agent_paths,
            out,
            finish,
            console,
            graders=prepared.graders,
            repeat=repeat,
            concurrency=concurrency,
            resume=resume,
            progress=not no_progress,
            validate=False,
            min_pass_rate=rate,
            **spread,
            model=model,
        )
        return
    try:
        result = asyncio.run(
            run_eval_set(
                test_set,
                agent,
                graders=prepared.graders,
                repeat=repeat,
                concurrency=concurrency,
                output_dir=out,
                resume=resume,
                progress=not no_progress,
                validate=False,
                min_pass_rate=rate,
                agent_file=agent_paths[0] if agent_paths else None,
                export=export,
                **spread,
            )
        )
    except CheckpointError as exc:
        raise _bad_input(str(exc)) from None
    except AllWorkersLost as exc:
        raise platform_failed(f"{exc}; finished cases are kept in {out}; continue with --resume --out {out}") from None
    except ExecutorError as exc:
        raise _bad_input(f"--executor {executor}: {exc}") from None
    except KeyboardInterrupt:
        raise leave(interrupts.resume_verdict(out)) from None
    finally:
        # imported on use: it loads the Copilot SDK (about 0.6 s), which `--help` must not
        from copilot_eval.runtime.process.pool import close_all_pools

        close_all_pools()  # a graceful stop now; the exit hook would only kill
        if export is not None:
            export.close()  # bounded; a collector that failed was one warning (logger copilot_eval.otel)
    extra = []
    if export is not None and export.exported_traces:
        extra.append(f"exported {export.exported_traces} case traces to {export.settings.endpoint}")
    if shard_info is not None:
        extra.append(
            f"shard {shard_info.label()}: {len({r.conversation_number for r in result.results or []})} conversations; "
            "merge the shards' folders with `copilot-eval merge`"
        )
    if discard_passing:
        extra.append(
            f"removed the working directories of {discard_passing_workdirs(result.results or [], out)} passing cases"
        )
    if (cassettes := getattr(getattr(agent, "model", None), "cassettes", None)) is not None:
        # imported on use: every command module loads with `--help` (see app.py)
        from copilot_eval.models.replay.wrap import cassette_summary

        extra.extend(cassette_summary([cassettes]))  # where --record put the calls, what --replay served
    if test_set.prompt_file is not None:
        # imported on use: every command module loads with `--help` (see app.py)
        from copilot_eval.reports.gh_json import gh_models_line, write_gh_models_json

        if (verdicts := gh_models_line(result)) is not None:
            extra.append(verdicts)
        if gh_json is not None:
            extra.append(f"gh-models JSON: {write_gh_models_json(result, test_set, gh_json)}")
    finished = finish_run_folders([FolderRun(out, result, test_set)], finish)
    verdict = None
    if gate is not None:
        # imported on use: every command module loads with `--help` (see app.py)
        from copilot_eval.cli.gate_cmd import gate_after_run
        from copilot_eval.exit_codes import worst

        # After the finisher: the run is in the history and its folder complete when the gate reads it.
        gated, lines = gate_after_run(out, name=gate, history=history, golden=golden, max_regressions=max_regressions)
        verdict = worst([finished.verdict, gated])
        extra.extend(lines)
    raise print_finished(finished, console, extra=extra, verdict=verdict)


def _variables(items: list[str] | None) -> dict[str, str]:
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.evalsets.prompt_cases import parse_variables

    try:
        return parse_variables(items)
    except ValueError as exc:
        raise _bad_input(str(exc)) from None


def _prompt_notes(prepared: Any) -> list[str]:
    """What a prompt file's run does not apply, said once before it starts."""
    record = prepared.test_set.prompt_file
    if record is None:
        return []
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.evalsets.prompt_runtime import unapplied_parameters

    model = getattr(prepared.agent, "model", None)
    if model is None:
        lines = ["session model: the target's own"]
    else:
        # imported on use: every command module loads with `--help` (see app.py)
        from copilot_eval.models.base import ModelSource, describe

        shown = (
            describe(model) if isinstance(model, ModelSource) else f"{model} (GitHub-hosted, or the agent's provider)"
        )
        lines = [f"session model: {shown}"]
    if (parameters := unapplied_parameters(record.model_parameters)) is not None:
        lines.append(parameters)
    return lines


def _shard_option(text: str | None) -> Any:
    if text is None:
        return None
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.runs.shards import ShardError, parse_shard

    try:
        return parse_shard(text)
    except ShardError as exc:
        raise _bad_input(str(exc)) from None


def _executor_option(name: str, address: str | None, workers: int | None, *, recording: bool, discard: bool) -> Any:
    """The executor ``--executor`` names, refusing what cannot work with it before anything runs."""
    if name not in EXECUTORS:
        raise _bad_input(f"--executor {name!r}: expected one of {', '.join(EXECUTORS)}")
    if name == "local":
        if address is not None or workers is not None:
            raise _bad_input("--ray-address and --ray-workers need --executor ray")
        return None
    if recording:
        raise _bad_input("--record/--replay run with --executor local only (cassettes are files of this machine)")
    if discard:
        raise _bad_input(
            "--discard-passing-workdirs runs with --executor local only: with ray the working "
            "directories are on the worker nodes (`copilot-eval clean` there removes them)"
        )
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.runs.executor import ExecutorError
    from copilot_eval.runs.ray_executor import RayExecutor

    try:
        return RayExecutor(
            address=address, workers=workers, say=lambda message: typer.echo(f"note: {message}", err=True)
        )
    except ExecutorError as exc:
        raise _bad_input(f"--executor ray: {exc}") from None


def _run_several(
    test_set: Any,
    agent_paths: list[Path],
    out: Path,
    finish: Any,
    console: Any,
    *,
    model: str | None = None,
    **options: Any,
) -> None:
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.cli.run_several import print_comparison, several_surfaces
    from copilot_eval.runs import CheckpointError
    from copilot_eval.runs.executor import AllWorkersLost, ExecutorError
    from copilot_eval.runs.finish import FolderRun, baseline_problem, finish_run_folders
    from copilot_eval.runs.prepare import PrepareError
    from copilot_eval.runs.surfaces import run_surfaces
    from copilot_eval.runtime.process.pool import close_all_pools

    try:
        surfaces = several_surfaces(test_set, agent_paths, model=model)
    except PrepareError as exc:
        raise _bad_input(str(exc)) from None
    if (problem := baseline_problem(finish.baseline, [s.label for s in surfaces])) is not None:
        raise _bad_input(problem)
    try:
        runs = asyncio.run(run_surfaces(test_set, surfaces, output_dir=out, **options))
    except (PrepareError, CheckpointError) as exc:
        raise _bad_input(str(exc)) from None
    except AllWorkersLost as exc:
        raise platform_failed(f"{exc}; finished cases are kept in {out}; continue with --resume --out {out}") from None
    except ExecutorError as exc:
        raise _bad_input(f"--executor ray: {exc}") from None
    except KeyboardInterrupt:
        raise leave(interrupts.resume_verdict(out)) from None
    finally:
        close_all_pools()
    print_comparison(test_set, runs, console, out)
    # Every surface's folder is finished like one agent's: its report, its own JUnit file, its baseline, its gates.
    folders = [FolderRun(s.output_dir, s.run, test_set, s.label) for s in runs if s.output_dir is not None]
    finished = finish_run_folders(folders, finish)
    raise print_finished(finished, console, summaries=False)


def register(app: typer.Typer) -> None:
    """Add the `run` command."""
    app.command(name="run")(run)
