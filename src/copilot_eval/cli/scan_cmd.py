"""`copilot-eval scan RUN_DIR`: run transcript scanners over a finished run folder, writing ``scans/<scanner>.jsonl``.

Findings sit beside the verdicts and never change run.json nor, by default, the exit code.
Exit codes (``copilot_eval.exit_codes``): 0 scanned; 1 a scanner named by ``--fail-on-finding``
found something; 2 the folder holds no readable run.json (or a newer layout), or ``--scan`` names
no scanner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input, leave
from copilot_eval.cli.options import FailOnFindingOption, ScanOption
from copilot_eval.evalsets import EvalSetError
from copilot_eval.exit_codes import worst
from copilot_eval.scans.choice import ScanChoiceError, choose_scanners, gate_names
from copilot_eval.scans.folder import run_folders_in, scan_run_folder, scan_verdict
from copilot_eval.untrusted.terminal import terminal_text


def scan(
    run_dir: Annotated[
        Path,
        typer.Argument(
            metavar="RUN_DIR",
            help="A run folder written by any copilot-eval command (a lift's or several agents' folder: each run in it).",
        ),
    ],
    scanners: ScanOption = None,
    fail_on_finding: FailOnFindingOption = None,
) -> None:
    """Scan a run's transcripts for platform errors read as answers, refusals, loops, obeyed injections and more."""
    try:
        chosen = choose_scanners(scanners)
        gates = gate_names(fail_on_finding, chosen)
    except (ScanChoiceError, EvalSetError) as exc:
        raise bad_input(str(exc)) from None
    if not chosen:
        raise bad_input("--scan none: nothing to scan; name a scanner or leave --scan out for the built-in set")
    folders = run_folders_in(run_dir)
    verdicts = []
    for folder in folders:
        try:
            report = scan_run_folder(folder, chosen)
        except EvalSetError as exc:
            raise bad_input(str(exc)) from None
        if len(folders) > 1:
            typer.echo(terminal_text(f"{folder}:"))
        for line in report.lines():  # quotes what agents wrote: shown, never obeyed
            typer.echo(terminal_text(line))
        verdicts.append(scan_verdict(report, gates))
    raise leave(worst(verdicts))


def register(app: typer.Typer) -> None:
    """Add the `scan` command."""
    app.command(name="scan")(scan)
