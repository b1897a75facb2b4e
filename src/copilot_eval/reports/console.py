"""The one way the command line makes a rich console: wide in CI logs, whole paths, no colour on request.

rich sizes its output to the terminal; when stdout is a pipe or a file (a CI log, ``| tee``) it
falls back to 80 columns, which cut questions to a few words and broke paths in the middle. Here a
console that does not write to a terminal takes ``COLUMNS`` when it is set, else ``LOG_WIDTH``;
plain lines are never wrapped (``soft_wrap``: a path or an id stays whole, so a log can be searched
for it); ``NO_COLOR`` (any value, https://no-color.org) and ``copilot-eval --no-color`` switch colour off.
The console is the terminal sanitiser's (``copilot_eval.untrusted.terminal.safe_console``): text from
elsewhere never controls the terminal, never crashes a print, and never starts a workflow command.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from copilot_eval.untrusted.terminal import NO_COLOR_ENV, safe_console

if TYPE_CHECKING:  # rich is imported where it is used: the CLI starts faster without it
    from rich.console import Console

LOG_WIDTH = 200
"""Columns of output that goes to a pipe or a file when ``COLUMNS`` is not set."""


def output_width(stream: TextIO, environ: Mapping[str, str] | None = None) -> int | None:
    """Columns for output to ``stream``: ``None`` (the terminal's own) on a terminal, else COLUMNS or LOG_WIDTH."""
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        interactive = False
    if interactive:
        return None
    configured = (os.environ if environ is None else environ).get("COLUMNS", "")
    return int(configured) if configured.isdigit() and int(configured) > 0 else LOG_WIDTH


def colour_off(environ: Mapping[str, str] | None = None) -> bool:
    """Whether colour is switched off (``NO_COLOR`` set to anything but the empty string)."""
    return bool((os.environ if environ is None else environ).get(NO_COLOR_ENV))


def make_console(*, stderr: bool = False) -> Console:
    """A console for the command's output (stderr when asked), sized and coloured by the rules above."""
    stream = sys.stderr if stderr else sys.stdout
    return safe_console(
        stderr=stderr,
        width=output_width(stream),
        soft_wrap=True,
        no_color=colour_off(),
        highlight=False,  # rich's guesses (numbers, paths, URLs in colour) are not ours to make
    )


__all__ = ["LOG_WIDTH", "NO_COLOR_ENV", "colour_off", "make_console", "output_width"]
