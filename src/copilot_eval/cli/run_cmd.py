"""`copilot-eval run SET --agent AGENT.yaml`: run a test set, grade it, write run.json and results.csv.

Exit codes: 0 the run completed (whatever the score); 1 the score missed ``--fail-under``; 2 bad
input (every problem of a bad set is printed; a missing agent file or a bad grader spec is named);
130 interrupted (what finished is kept; continue with ``--resume``).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Optional

import typer

EXIT_BELOW_THRESHOLD = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def _bad_input(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def _read_set(path: Path, data_type: str | None):  # noqa: ANN202 - EvalTestSet, imported lazily
    from copilot_eval.evalsets import EvalSetError, check_csv, check_json, read_csv, read_test_set_json

    is_json = path.suffix.lower() == ".json"
    problems = check_json(path) if is_json else check_csv(path)
    if problems:
        raise _bad_input(f"{path}: {len(problems)} problem(s)\n" + "\n".join(f"  - {p}" for p in problems))
    try:
        test_set = read_test_set_json(path) if is_json else read_csv(path)
    except EvalSetError as exc:
        raise _bad_input(str(exc)) from None
    if data_type:
        test_set = test_set.model_copy(update={"data_type": data_type})
    return test_set


def _load_agent(path: Path, option: str):  # noqa: ANN202 - CopilotEval, imported lazily
    from copilot_eval.agent import AgentFileError, load_agent_file

    if not path.is_file():
        raise _bad_input(f"{option} {path}: agent file not found")
    try:
        return load_agent_file(path)
    except (AgentFileError, ValueError) as exc:
        raise _bad_input(f"{option} {path}: {exc}") from None


def run(
    test_set_path: Annotated[Path, typer.Argument(metavar="SET", help="Test set: .csv or .json.")],
    agent_path: Annotated[Path, typer.Option("--agent", help="Agent file (YAML) to evaluate.")],
    grader: Annotated[Optional[list[str]], typer.Option("--grader", help="Grader spec, repeatable: exact, "
                      "keywords:all:a,b, similarity:0.7, capability:tool:NAME, compare_meaning[:50], "
                      "general_quality, labels:ok=pass,bad=fail. Default: similarity.")] = None,
    judge_path: Annotated[Optional[Path], typer.Option("--judge", help="Judge agent file for LLM graders.")] = None,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Play every case N times (pass@k, pass^k).")] = 1,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Sessions run in parallel.")] = 4,
    out: Annotated[Optional[Path], typer.Option("--out", help="Output directory (default: eval-runs/SET-TIME).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the interrupted run recorded in --out.")] = False,
    fail_under: Annotated[Optional[float], typer.Option("--fail-under", min=0, max=100,
                          help="Exit 1 when the score (percent of graded cases) is below this.")] = None,
    data_type: Annotated[Optional[str], typer.Option("--data-type", help="Override: SingleTurn or Conversation.")] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No live progress bar.")] = False,
    discard_passing: Annotated[bool, typer.Option("--discard-passing-workdirs",
                               help="Remove the working directories of passing cases after grading.")] = False,
) -> None:
    """Run a test set against an agent through the real runtime, grade it and record the run."""
    import asyncio

    from rich.console import Console

    from copilot_eval.grading.spec import GraderSpecError, parse_grader_spec
    from copilot_eval.reports.terminal import print_summary
    from copilot_eval.runs import CheckpointError, flaky_cases, pass_rates, run_eval_set

    if data_type not in (None, "SingleTurn", "Conversation"):
        raise _bad_input(f"--data-type {data_type!r}: expected SingleTurn or Conversation")
    test_set = _read_set(test_set_path, data_type)
    agent = _load_agent(agent_path, "--agent")
    judge = _load_agent(judge_path, "--judge") if judge_path else None
    try:
        graders = [parse_grader_spec(spec, judge=judge) for spec in grader or []]
    except GraderSpecError as exc:
        raise _bad_input(str(exc)) from None
    if resume and out is None:
        raise _bad_input("--resume needs --out naming the run directory to continue")
    out = out or Path("eval-runs") / f"{test_set_path.stem}-{datetime.now():%Y%m%d-%H%M%S}"
    out.mkdir(parents=True, exist_ok=True)
    console = Console()
    try:
        result = asyncio.run(run_eval_set(test_set, agent, graders=graders, repeat=repeat, concurrency=concurrency,
                                          output_dir=out, resume=resume, progress=not no_progress))
    except CheckpointError as exc:
        raise _bad_input(str(exc)) from None
    except KeyboardInterrupt:
        console.print(f"[yellow]interrupted[/]: finished cases are kept in {out}; continue with --resume --out {out}")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        from copilot_eval.runtime.process.pool import close_all_pools

        close_all_pools()  # a graceful stop now; the exit hook would only kill
    extra = []
    if repeat > 1:
        at_k, all_k = pass_rates(result)
        shown = [f"{v:g}%" if v is not None else "unknown" for v in (at_k, all_k)]
        extra.append(f"pass@{repeat} {shown[0]}, pass^{repeat} {shown[1]}; flaky cases: {flaky_cases(result) or 'none'}")
    if discard_passing:
        from copilot_eval.cli.clean_cmd import discard_passing_workdirs

        extra.append(f"removed the working directories of {discard_passing_workdirs(result.results or [], out)} passing cases")
    extra.append(f"outputs: {out / 'run.json'}, {out / 'results.csv'}, evidence in {out / 'evidence'}")
    print_summary(result, test_set, console, extra=extra)
    if fail_under is not None and result.general_quality_percent < fail_under:
        console.print(f"[red]score {result.general_quality_percent:g}% is below --fail-under {fail_under:g}[/]")
        raise typer.Exit(EXIT_BELOW_THRESHOLD)


def register(app: typer.Typer) -> None:
    """Add the `run` command."""
    app.command(name="run")(run)
