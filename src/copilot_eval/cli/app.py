"""The `copilot-eval` command: a thin Typer app whose commands live in one module each.

Each command module exposes ``register(app)``. Modules are imported here, but each one imports
the heavy layers (the SDK above all, which takes about a second) inside its command function,
so `--help` and `validate` stay fast.
"""

from __future__ import annotations

import shutil

import typer

from copilot_eval.cli import help_format, interrupts
from copilot_eval.exit_codes import UNUSABLE_INPUT, Verdict
from copilot_eval.redaction import RedactingStream

help_format.install()

# Help text uses the terminal's whole width (click's default stops at 80 columns).
_WIDTH = max(80, shutil.get_terminal_size((100, 24)).columns)

app = typer.Typer(
    context_settings={"max_content_width": _WIDTH, "terminal_width": _WIDTH},
    name="copilot-eval",
    help="Test agents built on GitHub Copilot through the real Copilot runtime.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# One line per command module; keep the list sorted.
_COMMAND_MODULES: tuple[str, ...] = (
    "analyze_cmd",
    "attack_cmd",
    "audit_cmd",
    "baseline_cmd",
    "clean_cmd",
    "comment_cmd",
    "compare_cmd",
    "convert_cmd",
    "customizations_cmd",
    "gate_cmd",
    "generate_cmd",
    "history_cmd",
    "init_cmd",
    "inspect_cmd",
    "lift_cmd",
    "login_cmd",
    "merge_cmd",
    "quickstart_cmd",
    "regrade_cmd",
    "report_cmd",
    "review_cmd",
    "run_cmd",
    "scan_cmd",
    "serve_cmd",
    "setup_cmd",
    "studio_eval_cmd",
    "tools_cmd",
    "triggers_cmd",
    "validate_cmd",
)


def _register_commands() -> None:
    import importlib

    for module_name in _COMMAND_MODULES:
        importlib.import_module(f"copilot_eval.cli.{module_name}").register(app)


_register_commands()


def _show_version(value: bool) -> None:
    if value:
        from copilot_eval.version import __version__  # a leaf: no heavy import to print one line

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
        import os

        from copilot_eval.reports.console import NO_COLOR_ENV  # imported on use, like every command's imports

        # The environment, not a flag: the consoles of every command read it, and so do the
        # subprocesses a command starts (the quickstart's stories, npm).
        os.environ[NO_COLOR_ENV] = "1"


DEBUG_ENV = "COPILOT_EVAL_DEBUG"


def _quiet_sdk_logs() -> None:
    # The SDK logs its own transport troubles (a runtime shutting down on Ctrl-C, a request cut
    # off by an abort) as warnings with tracebacks. The command reports outcomes itself, so those
    # are noise here; COPILOT_EVAL_DEBUG=1 brings them back for diagnosis.
    import logging
    import os

    if not os.environ.get(DEBUG_ENV):
        logging.getLogger("copilot").setLevel(logging.CRITICAL)


def _redact_console() -> None:
    # Everything the command prints (typer.echo, rich tables, progress, tracebacks) goes through
    # sys.stdout or sys.stderr: one choke point keeps registered secrets off the terminal and CI logs.
    import sys

    if not isinstance(sys.stdout, RedactingStream):
        sys.stdout = RedactingStream(sys.stdout)
    if not isinstance(sys.stderr, RedactingStream):
        sys.stderr = RedactingStream(sys.stderr)


# Options a person brings from another command, and what this command takes instead.
_OPTION_HINTS = {
    ("report", "--out"): "`report` writes one HTML file, not a run folder: name it with --html FILE",
}


def _hint(exc: Exception) -> str | None:
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
        # click's usage errors (typer vendors click from 0.20 on, so the class is matched by its shape)
        if not (callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int)):
            raise
        exc.show()  # type: ignore[attr-defined]
        why = exc.format_message() if callable(getattr(exc, "format_message", None)) else str(exc)  # type: ignore[attr-defined]
        why = why or "no command or argument given (the help above says which)"
        if (hint := _hint(exc)) is not None:
            why = f"{why}; {hint}"
        typer.echo(Verdict(UNUSABLE_INPUT, f"the command line: {why}").line(), err=True)
        return int(exc.exit_code)  # type: ignore[attr-defined]
    return code if isinstance(code, int) else 0


def main() -> None:
    """Entry point of the `copilot-eval` console script."""
    _quiet_sdk_logs()
    _redact_console()
    interrupts.install()
    raise SystemExit(interrupts.final_exit_code(_run_app()))


if __name__ == "__main__":
    main()
