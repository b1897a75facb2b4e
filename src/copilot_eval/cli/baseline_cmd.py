"""`copilot-eval baseline bless|list|show`: the runs a team blessed as what its pull requests are gated against.

Exit codes: 0 done; 2 unusable input (no readable run.json, no history database, no such baseline).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input
from copilot_eval.cli.history_cmd import HistoryOption, open_store
from copilot_eval.cli.options import JsonOption
from copilot_eval.gate import GateInputError, bless_folder
from copilot_eval.history import HistoryError
from copilot_eval.history.baselines import baseline_json, get_baseline
from copilot_eval.history.baselines import list_baselines as stored
from copilot_eval.untrusted.terminal import terminal_text

baseline_app = typer.Typer(
    name="baseline",
    help="Blessed baselines in the history: bless a run, list them, show one (docs/ci.md).",
    no_args_is_help=True,
)


def bless(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="The run folder to bless.")],
    name: Annotated[
        str | None, typer.Option("--name", metavar="NAME", help="The baseline's name (default: TEST_SET@AGENT).")
    ] = None,
    note: Annotated[str | None, typer.Option("--note", help="Why this run is the baseline.")] = None,
    history: HistoryOption = None,
) -> None:
    """Make a run the baseline of its test set and agent; it stays until a run is blessed under its name again."""
    with open_store(history, create=True) as store:
        try:
            done = bless_folder(store, run_dir, name=name, note=note)
        except (GateInputError, HistoryError, ValueError) as exc:
            raise bad_input(str(exc)) from None
    baseline = done.baseline
    moved = f" (it named run {done.replaced_run_id} before)" if done.replaced_run_id is not None else ""
    commit = f" at {baseline.git_commit[:12]}" if baseline.git_commit else ""
    typer.echo(
        f"blessed run {baseline.run_id}{commit} as baseline {baseline.name!r} of {baseline.test_set_name} / "
        f"{baseline.agent_name or '-'}{moved}; the run was {done.run_state}"
    )


def list_baselines(
    history: HistoryOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the blessed baselines."""
    with open_store(history, create=False) as store:
        found, database = stored(store), store.location.display
    if as_json:
        document = {"schemaVersion": 1, "database": database, "baselines": [baseline_json(b) for b in found]}
        typer.echo(json.dumps(document, indent=2))
        return
    if not found:
        typer.echo(f"no baseline in {database}: `copilot-eval baseline bless RUN_DIR` blesses one")
        return
    for baseline in found:
        score = baseline.run.get("score_percent")
        typer.echo(
            f"{baseline.name}: run {baseline.run_id} of {baseline.test_set_name} / {baseline.agent_name or '-'}, "
            f"score {'n/a' if score is None else f'{score:g}%'}, blessed {baseline.blessed_at:%Y-%m-%d %H:%M} UTC"
            f" by {baseline.blessed_by or 'unknown'}"
            + (f", commit {baseline.git_commit[:12]}" if baseline.git_commit else "")
        )


def show(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The baseline's name (see `baseline list`).")],
    history: HistoryOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one baseline: its run, who blessed it and when, the commit, the fingerprints."""
    with open_store(history, create=False) as store:
        found = get_baseline(store, name)
    if found is None:
        raise bad_input(f"no baseline {name!r}: `copilot-eval baseline list` names them")
    document = baseline_json(found)
    if as_json:
        typer.echo(json.dumps(document, indent=2))
        return
    for key, value in document.items():
        if value is None:
            continue  # not recorded (a note nobody wrote, a run without a commit): nothing to show, not "None"
        typer.echo(f"{key}: {terminal_text(json.dumps(value) if isinstance(value, dict) else value)}")


def register(app: typer.Typer) -> None:
    """Add the `baseline` command group."""
    baseline_app.command(name="bless")(bless)
    baseline_app.command(name="list")(list_baselines)
    baseline_app.command(name="show")(show)
    app.add_typer(baseline_app)
