"""The `copilot-eval` command: a thin Typer app whose commands live in one module each.

Each command module exposes ``register(app)`` and imports what it needs at module level. The app
is a lazy group (``cli/lazy_group.py``): ``COMMANDS`` below names every command, its module and its
one-line help, so `--help` lists them all without importing one, and a command's module (with the
heavy layers it needs, the SDK above all) is imported only when that command runs or shows its help.
A new command is one module and one row of ``COMMANDS``.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
from typing import Protocol, TypeGuard

import typer

from copilot_eval.cli import help_format, interrupts
from copilot_eval.cli.lazy_group import LazyCommand, LazyGroup
from copilot_eval.exit_codes import UNUSABLE_INPUT, Verdict
from copilot_eval.redaction import RedactingStream
from copilot_eval.untrusted.terminal import NO_COLOR_ENV
from copilot_eval.version import __version__

help_format.install()

# Help text uses the terminal's whole width (click's default stops at 80 columns).
_WIDTH = max(80, shutil.get_terminal_size((100, 24)).columns)


def _row(name: str, module: str, short_help: str) -> LazyCommand:
    return LazyCommand(name, f"copilot_eval.cli.{module}", short_help)


# Every command, in the order `--help` lists them: name, module, and the one-line help the command's
# own docstring (or its group's help) starts with (tests/cli/test_lazy_cli.py keeps the two equal).
COMMANDS: tuple[LazyCommand, ...] = (
    _row(
        "analyze",
        "analyze_cmd",
        "Read an Evaluate-tab results export, judge it like our own runs, write its run folder and print the summary.",
    ),
    _row(
        "attack",
        "attack_cmd",
        "Play an injection suite against the agent: utility without and under attack, attack success per vector and text.",
    ),
    _row(
        "audit",
        "audit_cmd",
        "Start the agent's MCP servers, read every tool they offer, and flag what in it is aimed at the model.",
    ),
    _row(
        "clean",
        "clean_cmd",
        "Remove what finished runs kept in the temporary directory (copilot-eval-run-*, -ab-*, -quickstart-*).",
    ),
    _row(
        "comment",
        "comment_cmd",
        "Post FILE.md as the pull request's comment of --key: update it when it exists, else create it; never two.",
    ),
    _row(
        "compare",
        "compare_cmd",
        "Compare two runs: cases regressed, in error now, improved, changed, new, removed, unchanged; the score delta.",
    ),
    _row("convert", "convert_cmd", "Convert a test set between CSV templates, JSON and prompt files."),
    _row(
        "customizations",
        "customizations_cmd",
        "List the customization files the runtime loads for this agent in this folder, and why one was not sent.",
    ),
    _row(
        "gate",
        "gate_cmd",
        "Gate a run against its blessed baseline, case by case: regressions, errors apart, golden cases, staleness.",
    ),
    _row(
        "init",
        "init_cmd",
        "Write a starter suite: agent file, scripted model, a pytest test, a test set, a judge, a CI workflow.",
    ),
    _row(
        "inspect",
        "inspect_cmd",
        "Summarise a saved event log or evidence file: success, tools, MCP servers, capture errors, subagents.",
    ),
    _row(
        "lift",
        "lift_cmd",
        "Does a customization help? Play one test set (or trigger set) through two arms and compare them case by case.",
    ),
    _row(
        "login",
        "login_cmd",
        "Sign in with a device code and cache the tokens a Copilot Studio target or `studio-eval` needs.",
    ),
    _row(
        "merge",
        "merge_cmd",
        "Merge the run folders of a sharded run into one run folder, after checking they belong together.",
    ),
    _row(
        "quickstart",
        "quickstart_cmd",
        "Run the example suite and evaluations (offline, scripted models) and summarise what each showed.",
    ),
    _row(
        "regrade",
        "regrade_cmd",
        "Grade the saved answers and evidence of a run with other graders into a new run folder.",
    ),
    _row(
        "report",
        "report_cmd",
        "Write the HTML report of a run: summary, limitation, repeats, charts, a drill-down per case.",
    ),
    _row(
        "review",
        "review_cmd",
        "Review a run's verdicts case by case (or import labels), stored in the history beside the judges'.",
    ),
    _row("run", "run_cmd", "Run a test set against an agent through the real runtime, grade it and record the run."),
    _row(
        "scan",
        "scan_cmd",
        "Scan a run's transcripts for platform errors read as answers, refusals, loops, obeyed injections and more.",
    ),
    _row(
        "serve",
        "serve_cmd",
        "Serve the history dashboard: pass rate over time, limitation episodes, a case-by-run grid, each run's report.",
    ),
    _row(
        "setup", "setup_cmd", "Install the pinned Copilot runtime with npm, unpack its assets once, check its protocol."
    ),
    _row(
        "tools",
        "tools_cmd",
        "Start the agent's MCP servers and the runtime, and list the tools its model would be offered.",
    ),
    _row(
        "triggers",
        "triggers_cmd",
        "Play a trigger set: does the model choose each skill or custom agent for its prompts, and only for them?",
    ),
    _row(
        "skills",
        "triggers_cmd",
        "List the agent's skills and custom agents as the runtime loaded them: name, description length, source, problems.",
    ),
    _row(
        "validate",
        "validate_cmd",
        "Check test-set files: Copilot Studio sets against the importer's rules, prompt files as gh-models reads them.",
    ),
    _row(
        "baseline", "baseline_cmd", "Blessed baselines in the history: bless a run, list them, show one (docs/ci.md)."
    ),
    _row(
        "generate",
        "generate_cmd",
        "Draft a test set or a trigger set from an agent's own description (docs/generate.md).",
    ),
    _row(
        "history", "history_cmd", "The history of runs: add run folders, list runs, trends over time (docs/history.md)."
    ),
    _row(
        "studio-eval",
        "studio_eval_cmd",
        "Copilot Studio's own evaluations through its REST API (test sets authored in the Evaluate tab).",
    ),
)


class _Commands(LazyGroup):
    table = COMMANDS


app = typer.Typer(
    cls=_Commands,
    context_settings={"max_content_width": _WIDTH, "terminal_width": _WIDTH},
    name="copilot-eval",
    help="Test agents built on GitHub Copilot through the real Copilot runtime.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def every_command() -> LazyGroup:
    """The app's click group with every command's module imported (for tests that walk all commands)."""
    group = typer.main.get_command(app)
    assert isinstance(group, LazyGroup)
    group.load_all()
    return group


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"copilot-eval {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_show_version, help="Print the version and exit."
    ),
    no_color: bool = typer.Option(
        False, "--no-color", help="No colour in the output (the same as setting NO_COLOR=1); before the command."
    ),
) -> None:
    """Test agents built on GitHub Copilot through the real Copilot runtime."""
    if no_color:
        # The environment, not a flag: the consoles of every command read it, and so do the
        # subprocesses a command starts (the quickstart's stories, npm).
        os.environ[NO_COLOR_ENV] = "1"


DEBUG_ENV = "COPILOT_EVAL_DEBUG"


def _quiet_sdk_logs() -> None:
    # The SDK logs its own transport troubles (a runtime shutting down on Ctrl-C, a request cut
    # off by an abort) as warnings with tracebacks. The command reports outcomes itself, so those
    # are noise here; COPILOT_EVAL_DEBUG=1 brings them back for diagnosis.
    if not os.environ.get(DEBUG_ENV):
        logging.getLogger("copilot").setLevel(logging.CRITICAL)


def _redact_console() -> None:
    # Everything the command prints (typer.echo, rich tables, progress, tracebacks) goes through
    # sys.stdout or sys.stderr: one choke point keeps registered secrets off the terminal and CI logs.
    if not isinstance(sys.stdout, RedactingStream):
        sys.stdout = RedactingStream(sys.stdout)
    if not isinstance(sys.stderr, RedactingStream):
        sys.stderr = RedactingStream(sys.stderr)


# Options a person brings from another command, and what this command takes instead.
_OPTION_HINTS = {
    ("report", "--out"): "`report` writes one HTML file, not a run folder: name it with --html FILE",
}


class _UsageError(Protocol):
    """What this module uses of click's usage errors (Typer vendors click from 0.20 on: matched by shape)."""

    exit_code: int

    def show(self) -> None:
        """Print the usage and the error to stderr."""
        ...


def _is_usage_error(exc: Exception) -> TypeGuard[_UsageError]:
    return callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int)


def _hint(exc: object) -> str | None:
    """What to give instead of an unknown option that another command takes (``None`` for any other error)."""
    context = getattr(exc, "ctx", None)
    command = getattr(context, "info_name", None)
    return _OPTION_HINTS.get((str(command), str(getattr(exc, "option_name", ""))))


def _run_app() -> int:
    """Run the command; a usage error (an unknown option, a missing argument) ends with the table's line too."""
    try:
        code = typer.main.get_command(app).main(prog_name="copilot-eval", standalone_mode=False)
    except typer.Abort:
        typer.echo(interrupts.stopped_verdict().line(), err=True)
        return interrupts.row().code
    except Exception as exc:
        if not _is_usage_error(exc):
            raise
        exc.show()
        formatted = getattr(exc, "format_message", None)
        why = str(formatted()) if callable(formatted) else str(exc)
        why = why or "no command or argument given (the help above says which)"
        if (hint := _hint(exc)) is not None:
            why = f"{why}; {hint}"
        typer.echo(Verdict(UNUSABLE_INPUT, f"the command line: {why}").line(), err=True)
        return int(exc.exit_code)
    return code if isinstance(code, int) else 0


def main() -> None:
    """Entry point of the `copilot-eval` console script."""
    _quiet_sdk_logs()
    _redact_console()
    interrupts.install()
    raise SystemExit(interrupts.final_exit_code(_run_app()))


if __name__ == "__main__":
    main()
