"""`copilot-eval history ingest|trends|runs|agreement|parts|skills|lift`: add run folders to the history and ask it questions over time.

Exit codes (``copilot_eval.exit_codes``): 0 done; 2 unusable input (no history database yet, a URL
that cannot be used, a folder without a readable run.json: every other folder given is still ingested).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.options import JsonOption
from copilot_eval.history import (
    HistoryError,
    HistoryLocationError,
    HistoryStore,
    Provenance,
    detect_provenance,
    ingest_folders,
    list_runs,
    load_series,
    resolve_history,
    runs_document,
    series_names,
    series_trends,
    trends_document,
)
from copilot_eval.history.agreement import agreement_document, flagged_line, grader_agreement
from copilot_eval.history.quality_parts_view import parts_document, parts_table, quality_parts_by_case
from copilot_eval.history.terminal import agreement_table, print_series, runs_table
from copilot_eval.lift.history import lift_history
from copilot_eval.reports.console import make_console
from copilot_eval.triggers.history import skill_history, trigger_set_series_name
from copilot_eval.untrusted.terminal import terminal_line, terminal_text

history_app = typer.Typer(
    name="history",
    help="The history of runs: add run folders, list runs, trends over time (docs/history.md).",
    no_args_is_help=True,
)

HistoryOption = Annotated[
    str | None,
    typer.Option(
        "--history",
        metavar="URL",
        help="History database: sqlite:///PATH, postgresql://USER@HOST/DB or a file path "
        "(default: env COPILOT_EVAL_HISTORY, else .copilot-eval/history.db in the project folder).",
    ),
]
# Options several history commands take with the same meaning.
_AgentOption = Annotated[str | None, typer.Option("--agent", metavar="NAME", help="Only runs of this agent.")]
_LastRunsOption = Annotated[int | None, typer.Option("--last", min=1, help="Only the N most recent runs.")]


def _echo_json(document: object) -> None:
    typer.echo(json.dumps(document, indent=2, ensure_ascii=False))


def _view_console(as_json: bool, document: Callable[[], object], nothing: str | None) -> Console | None:
    """Print the view's JSON (--json) or the line saying nothing matched; else the console to print the view on."""
    if as_json:
        _echo_json(document())
        return None
    console = make_console()
    if nothing is not None:
        console.print(nothing, highlight=False)
        return None
    return console


def open_store(history: str | None, *, create: bool) -> HistoryStore:
    """The history store named by ``--history`` (or its defaults), or exit 2 with a message naming it."""
    try:
        location = resolve_history(history)
    except HistoryLocationError as exc:
        raise bad_input(str(exc)) from None
    if location is None:
        raise bad_input("the history is switched off (--history off / COPILOT_EVAL_HISTORY=off); name a database")
    try:
        return HistoryStore.open(location, create=create)
    except HistoryError as exc:
        raise bad_input(str(exc)) from None


def ingest(
    run_dirs: Annotated[
        list[Path], typer.Argument(metavar="RUN_DIR...", help="Run folders, or folders with run folders below them.")
    ],
    history: HistoryOption = None,
    commit: Annotated[str | None, typer.Option("--commit", help="The commit these runs tested.")] = None,
    branch: Annotated[str | None, typer.Option("--branch", help="The branch these runs tested.")] = None,
    ci_url: Annotated[str | None, typer.Option("--ci-url", help="The URL of the CI run that made them.")] = None,
    detect: Annotated[
        bool,
        typer.Option(
            "--detect-provenance",
            help="Take commit, branch and CI URL from the CI's environment or git here (for runs made just now).",
        ),
    ] = False,
) -> None:
    """Add existing run folders to the history; a run already stored is not stored again."""
    provenance = detect_provenance() if detect else Provenance()
    provenance = Provenance(commit or provenance.commit, branch or provenance.branch, ci_url or provenance.ci_run_url)
    with open_store(history, create=True) as store:
        done = ingest_folders(store, run_dirs, provenance=provenance)
        failed = 0
        for folder, outcome in done:
            if isinstance(outcome, Exception):
                failed += 1
                typer.echo(f"error: {terminal_text(outcome)}", err=True)
            else:
                typer.echo(f"{folder}: {outcome.state} (run {outcome.run_id})")
        typer.echo(f"history: {store.location.display}")
    if failed:
        raise bad_input(f"{failed} of {len(done)} folders could not be read (above); the others were ingested")


def runs(
    history: HistoryOption = None,
    test_set: Annotated[str | None, typer.Option("--set", metavar="NAME", help="Only runs of this test set.")] = None,
    agent: _AgentOption = None,
    last: _LastRunsOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the stored runs, newest first."""
    with open_store(history, create=False) as store:
        found = list_runs(store, test_set=test_set, agent=agent, last=last)
        if as_json:
            _echo_json(runs_document(found, database=store.location.display))
            return
        make_console().print(
            runs_table(found, title=f"{len(found)} run{'' if len(found) == 1 else 's'} in {store.location.display}")
        )


def trends(
    history: HistoryOption = None,
    test_set: Annotated[str | None, typer.Option("--set", metavar="NAME", help="Only this test set.")] = None,
    agent: Annotated[str | None, typer.Option("--agent", metavar="NAME", help="Only this agent.")] = None,
    last: Annotated[int | None, typer.Option("--last", min=1, help="Only the last N runs of each series.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Per test set and agent: pass rates over time, flaky cases, regression points, limitation episodes."""
    with open_store(history, create=False) as store:
        names = series_names(store, test_set=test_set, agent=agent)
        found = [series_trends(load_series(store, name, who, last=last)) for name, who in names]
        console = _view_console(
            as_json,
            lambda: trends_document(found, database=store.location.display, last=last),
            None if found else f"no runs in {store.location.display} match",
        )
        if console is None:
            return
        for series in found:
            print_series(series, console)


def agreement(
    history: HistoryOption = None,
    grader: Annotated[str | None, typer.Option("--grader", metavar="NAME", help="Only this grader (its name).")] = None,
    min_kappa: Annotated[
        float, typer.Option("--min-kappa", min=-1.0, max=1.0, help="Flag graders whose kappa is below this.")
    ] = 0.6,
    as_json: JsonOption = False,
) -> None:
    """Per grader, how far it agrees with people's verdicts: TPR, TNR, accuracy, Cohen's kappa with its 95% interval."""
    with open_store(history, create=False) as store:
        found = grader_agreement(store, grader=grader)
        nothing = (
            f"no reviewed cases in {store.location.display}"
            + (f" for grader {grader!r}" if grader else "")
            + ": give verdicts with `copilot-eval review RUN_DIR`"
        )
        console = _view_console(
            as_json,
            lambda: agreement_document(found, database=store.location.display, min_kappa=min_kappa),
            None if found else nothing,
        )
        if console is None:
            return
        console.print(
            agreement_table(found, min_kappa=min_kappa, title=f"graders against people ({store.location.display})")
        )
        for item in found:
            if item.below(min_kappa):
                console.print(flagged_line(item, min_kappa), highlight=False)


def parts(
    test_set: Annotated[
        str, typer.Option("--set", metavar="NAME", help="The test set whose runs to set side by side.")
    ],
    history: HistoryOption = None,
    last: Annotated[int, typer.Option("--last", min=1, help="The N newest runs with General quality's parts.")] = 10,
    as_json: JsonOption = False,
) -> None:
    """General quality part by part, case by case, across the runs of one test set (a local run beside the platform's)."""
    with open_store(history, create=False) as store:
        found = quality_parts_by_case(store, test_set, last=last)
        # called as trends and agreement call it (alike in shape): each view passes its own document and line
        console = _view_console(
            as_json,
            lambda: parts_document(found, database=store.location.display, test_set=test_set),
            None if found else f"no run of {test_set!r} in {store.location.display} has General quality's parts",
        )
        if console is None:
            return
        console.print(parts_table(found, title=f"{test_set}: General quality part by part (bold: the runs differ)"))


def skills(
    trigger_set: Annotated[
        str, typer.Argument(metavar="SET", help="The trigger set's name (its file name without suffix).")
    ],
    history: HistoryOption = None,
    agent: _AgentOption = None,
    last: _LastRunsOption = None,
    as_json: JsonOption = False,
) -> None:
    """Per skill, precision and recall over the stored trigger runs of SET; a new segment where the catalogue changed."""
    with open_store(history, create=False) as store:
        found = list_runs(store, test_set=trigger_set_series_name(trigger_set), agent=agent, last=last)
    points, unreadable = skill_history(found)
    for folder in unreadable:
        typer.echo(f"no triggers.json in {folder} (moved or deleted): left out", err=True)
    if as_json:
        _echo_json({"set": trigger_set, "points": [p.to_dict() for p in points]})
        return

    names = sorted({name for point in points for name in point.skills})
    table = Table(title=f"Trigger set {trigger_set}: precision / recall per run (oldest first)")
    for column in ("run at", "segment", *names):
        table.add_column(column, overflow="fold")

    def cell(figures: Mapping[str, object] | None) -> str:
        if figures is None:
            return "-"
        shown = ["unknown" if figures[k] is None else f"{figures[k]:.0%}" for k in ("precision", "recall")]
        return " / ".join(shown)

    for point in points:
        table.add_row(point.run_at or "unknown", str(point.segment), *(cell(point.skills.get(n)) for n in names))
    make_console().print(table)


def lift(
    test_set: Annotated[str, typer.Argument(metavar="SET", help="The test set's name, as its runs record it.")],
    history: HistoryOption = None,
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="NAME", help="Only lifts whose arms differ by this skill or file."),
    ] = None,
    last: _LastRunsOption = None,
    as_json: JsonOption = False,
) -> None:
    """The lift of each stored `copilot-eval lift` run of SET, oldest first, with the texts that told its arms apart."""
    with open_store(history, create=False) as store:
        found = list_runs(store, test_set=test_set, last=last)
    points, unreadable = lift_history(found, name=name)
    for folder in unreadable:
        typer.echo(terminal_text(f"unreadable lift.json in {folder}: left out"), err=True)
    if as_json:
        _echo_json({"set": test_set, "points": [p.to_dict() for p in points]})
        return
    table = Table(title=terminal_line(f"Lift over time on {test_set} (oldest first)"))
    for column in ("run at", "arms", "lift", "95% interval", "verdict", "customization (sha256)"):
        table.add_column(column, overflow="fold")
    for p in points:
        interval = "unknown" if p.interval is None else f"{p.interval[0] * 100:+.0f} to {p.interval[1] * 100:+.0f}"
        texts = ", ".join(f"{t['kind']} {t['name']} ({t['sha256'][:12]})" for t in p.customizations) or "-"
        table.add_row(
            p.run_at or "unknown",
            terminal_line(f"{p.treatment} over {p.control}"),
            "unknown" if p.difference is None else f"{p.difference * 100:+.1f}",
            interval,
            p.verdict.replace("_", " "),
            terminal_line(texts),
        )
    make_console().print(table)


def register(app: typer.Typer) -> None:
    """Add the `history` command group."""
    history_app.command(name="agreement")(agreement)
    history_app.command(name="parts")(parts)
    history_app.command(name="ingest")(ingest)
    history_app.command(name="lift")(lift)
    history_app.command(name="runs")(runs)
    history_app.command(name="skills")(skills)
    history_app.command(name="trends")(trends)
    app.add_typer(history_app)
