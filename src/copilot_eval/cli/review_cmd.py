"""`copilot-eval review RUN_DIR`: a person's verdicts beside the judges', one case at a time, or imported.

Interactive: each case shows its question, reference, answer and every grader's verdict and reason
(the cases where graders disagree or a judge wavered first); type pass, fail or skip (p, f, s; q
stops) and an optional note. Each verdict is stored in the history at once, with who gave it and
when. ``--import LABELS.csv`` takes labels made elsewhere (``case, verdict, reviewer, note``).
Either way the run re-scored with people's verdicts is printed.

Exit codes (``copilot_eval.exit_codes``): 0 done; 2 bad input (not a run folder, a labels file with
problems, no database).
"""

from __future__ import annotations

import getpass
import os
import subprocess
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input as _fail
from copilot_eval.cli.history_cmd import HistoryOption, open_store
from copilot_eval.evalsets import EvalSetError
from copilot_eval.history import HistoryError, HistoryStore
from copilot_eval.history.human_verdicts import HumanLabel, add_verdicts, given_verdicts, rescore
from copilot_eval.history.labels_file import LabelsFileError, read_labels
from copilot_eval.history.review_queue import item_text, parse_answer, review_queue, stored_folder
from copilot_eval.history.run_notices import write_report_with_notices
from copilot_eval.reports.run_folder import RunFolder


def default_reviewer() -> str:
    """Who is reviewing: env COPILOT_EVAL_REVIEWER, else git's user.name, else the login name."""
    if name := os.environ.get("COPILOT_EVAL_REVIEWER", "").strip():
        return name
    try:
        found = subprocess.run(["git", "config", "user.name"], capture_output=True, text=True, timeout=5, check=False)
        if found.stdout.strip():
            return found.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return getpass.getuser()


def _interactive(store: HistoryStore, folder: RunFolder, run_id: int, reviewer: str, again: bool) -> int:
    """Ask about each case in the queue; every verdict is stored as soon as it is given. Returns how many."""
    queue = review_queue(folder, given_verdicts(store, run_id), include_reviewed=again)
    if not queue:
        typer.echo("nothing to review: every case has a person's verdict (--again reviews them again)")
        return 0
    typer.echo(f"reviewing {len(queue)} case results as {reviewer}; type p(ass), f(ail), s(kip) or q(uit)")
    given = 0
    for position, item in enumerate(queue, start=1):
        typer.echo("")
        typer.echo(item_text(item, position, len(queue)))
        answer = None
        while answer is None:
            answer = parse_answer(typer.prompt("verdict [p/f/s/q]", default="s", show_default=False))
            if answer is None:
                typer.echo("type p (pass), f (fail), s (skip) or q (quit)")
        if answer == "quit":
            break
        if answer == "skip":
            continue
        note = typer.prompt("note (optional)", default="", show_default=False).strip()
        add_verdicts(store, run_id, [HumanLabel(item.case_key, answer, reviewer, note or None, item.repeat_index)])
        given += 1
    return given


def review(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="A run folder (run, analyze, studio-eval ...).")],
    labels: Annotated[
        Path | None,
        typer.Option(
            "--import", metavar="LABELS.csv", help="Import verdicts made elsewhere: case,verdict,reviewer,note."
        ),
    ] = None,
    reviewer: Annotated[
        str | None,
        typer.Option("--reviewer", help="Who gives the verdicts (default: env COPILOT_EVAL_REVIEWER, git user.name)."),
    ] = None,
    again: Annotated[bool, typer.Option("--again", help="Also show cases a person already reviewed.")] = False,
    history: HistoryOption = None,
) -> None:
    """Review a run's verdicts case by case (or import labels), stored in the history beside the judges'."""
    with open_store(history, create=True) as store:
        try:
            folder, run_id = stored_folder(store, run_dir)
            if labels is not None:
                known = {f"{r.conversation_number}.{r.turn or 1}" for r in folder.run.results or []}
                imported = read_labels(labels, reviewer=reviewer, known_cases=known)
                add_verdicts(store, run_id, imported)
                typer.echo(f"imported {len(imported)} verdicts from {labels} into run {run_id}")
            else:
                given = _interactive(store, folder, run_id, reviewer or default_reviewer(), again)
                typer.echo(f"\n{given} verdict{'s' if given != 1 else ''} stored in run {run_id}")
            typer.echo(rescore(store, run_id).summary())
            # the run's report shows people's verdicts from now on, without a separate `report`
            _, report = write_report_with_notices(store, folder, run_id)
            if report is not None:
                typer.echo(f"report: {report} (with people's verdicts)")
        except (EvalSetError, LabelsFileError, HistoryError) as exc:
            raise _fail(str(exc)) from None
        typer.echo(f"history: {store.location.display}")


def register(app: typer.Typer) -> None:
    """Add the `review` command."""
    app.command(name="review")(review)
