"""The `copilot-eval` command: a thin Typer app whose commands live in one module each.

Each command module exposes ``register(app)``. Modules are imported here, but each one imports
the heavy layers (the SDK above all, which takes about a second) inside its command function,
so `--help` and `validate` stay fast.
"""

from __future__ import annotations

import shutil

import typer

from copilot_eval.redaction import RedactingStream

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
    "clean_cmd",
    "compare_cmd",
    "convert_cmd",
    "history_cmd",
    "inspect_cmd",
    "login_cmd",
    "merge_cmd",
    "quickstart_cmd",
    "regrade_cmd",
    "report_cmd",
    "review_cmd",
    "run_cmd",
    "serve_cmd",
    "setup_cmd",
    "studio_eval_cmd",
    "tools_cmd",
    "validate_cmd",
)


def _register_commands() -> None:
    import importlib

    for module_name in _COMMAND_MODULES:
        importlib.import_module(f"copilot_eval.cli.{module_name}").register(app)


_register_commands()


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


def main() -> None:
    """Entry point of the `copilot-eval` console script."""
    _quiet_sdk_logs()
    _redact_console()
    app()


if __name__ == "__main__":
    main()
