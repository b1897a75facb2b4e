"""`copilot-eval gate RUN_DIR`: did this run make the agent worse than its blessed baseline, and where?

Exit codes (the one table): 0 no regression beyond the limit; 1 regressions (more than
--max-regressions, or any golden case); 2 unusable input (no run folder, no baseline: the message
says how to bless one); 3 undecidable (the run measures the platform, a golden case in error).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.history_cmd import HistoryOption, open_store
from copilot_eval.cli.options import DetailsUrlOption, GoldenOption, JsonOption, MaxRegressionsOption
from copilot_eval.gate import (
    GateInputError,
    GateOptions,
    gate_folder,
    gate_json,
    gate_junit,
    gate_markdown,
    headline,
    read_golden,
)
from copilot_eval.gate.run_gate import no_history
from copilot_eval.gate.views import case_label
from copilot_eval.history import HistoryError, HistoryLocationError, resolve_history
from copilot_eval.untrusted.terminal import terminal_text

if TYPE_CHECKING:
    from copilot_eval.gate import GateResult


def write_gate_views(
    result: GateResult,
    *,
    markdown: str | None,
    junit: Path | None,
    as_json: bool,
    details_url: str | None,
) -> None:
    """Print the gate (or its JSON) and write the Markdown and JUnit asked for; shared by `gate` and `run --gate`."""

    text = gate_markdown(result, details_url=details_url)
    if as_json:
        typer.echo(json.dumps(gate_json(result), indent=2))
    elif markdown == "-":
        typer.echo(text, nl=False)
    else:
        typer.echo(f"gate against {terminal_text(result.baseline.label)}: {headline(result)}")
        for reason in result.stale:
            typer.echo(f"stale baseline: {terminal_text(reason)}")
        for outcome in result.of_kind("regressed"):
            then, now = outcome.then, outcome.now
            assert then is not None and now is not None
            golden = " (golden)" if outcome.golden else ""
            label, reason = terminal_text(case_label(now)), terminal_text(now.reason)
            typer.echo(f"  regressed{golden}: {label}: {then.shown()} -> {now.shown()}: {reason}")
        for outcome in result.of_kind("error"):
            label, reason = terminal_text(case_label(outcome.side)), terminal_text(outcome.side.reason)
            typer.echo(f"  error now (not graded): {label}: {reason}")
    if markdown and markdown != "-":
        write_text_atomically(markdown, text)
    if junit:
        write_text_atomically(junit, gate_junit(result))


def gate(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN_DIR", help="The run folder to gate.")],
    baseline: Annotated[
        str | None,
        typer.Option("--baseline", metavar="NAME", help="A blessed baseline (default: the run's TEST_SET@AGENT)."),
    ] = None,
    baseline_dir: Annotated[
        Path | None, typer.Option("--baseline-dir", metavar="DIR", help="Gate against this run folder instead.")
    ] = None,
    max_regressions: MaxRegressionsOption = 0,
    alpha: Annotated[
        float,
        typer.Option("--alpha", help="With repeats: a drop is a regression when Fisher's one-sided p is below this."),
    ] = 0.05,
    golden: GoldenOption = None,
    stale_days: Annotated[
        float, typer.Option("--stale-days", metavar="D", help="Name a baseline older than this many days as stale.")
    ] = 7.0,
    markdown: Annotated[
        str | None,
        typer.Option("--markdown", metavar="FILE", help="Write the gate as Markdown ('-' for stdout), for `comment`."),
    ] = None,
    junit: Annotated[Path | None, typer.Option("--junit", metavar="FILE", help="Write the gate as JUnit XML.")] = None,
    as_json: JsonOption = False,
    details_url: DetailsUrlOption = None,
    history: HistoryOption = None,
) -> None:
    """Gate a run against its blessed baseline, case by case: regressions, errors apart, golden cases, staleness."""

    try:
        options = GateOptions(
            max_regressions=max_regressions,
            alpha=alpha,
            golden=read_golden(golden) if golden else frozenset(),
            stale_days=stale_days,
        )
        if baseline_dir is not None:
            result = gate_folder(run_dir, options=options, baseline=baseline, baseline_dir=baseline_dir)
        else:
            _history_exists(history)
            with open_store(history, create=False) as store:
                result = gate_folder(run_dir, options=options, store=store, baseline=baseline)
    except (GateInputError, HistoryError, ValueError) as exc:
        raise bad_input(str(exc)) from None
    write_gate_views(result, markdown=markdown, junit=junit, as_json=as_json, details_url=details_url)
    end_with(result)


def _history_exists(history: str | None) -> None:
    """Refuse a history database that does not exist with how to bless a baseline (open_store says the rest)."""

    try:
        location = resolve_history(history)
    except HistoryLocationError:
        return  # open_store names the bad option
    if location is not None and not location.exists:
        raise no_history(location.display)


def end_with(result: GateResult) -> None:
    """Exit with the gate's row of the table of exit codes, printing the line that names it and why."""
    if result.code:
        raise leave(result.verdict)


def register(app: typer.Typer) -> None:
    """Add the `gate` command."""
    app.command(name="gate")(gate)
