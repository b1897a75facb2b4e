"""Untrusted text for a terminal or a CI log: seen as text, never obeyed.

What a terminal or a CI runner would act on is shown as an escape instead: C0 and C1 control
characters and DEL (ESC starts colour, cursor moves, a window title, a hyperlink; NUL and BEL
too), and the invisible bidirectional controls that reorder what a reader sees. A line that
would start with ``::`` (after spaces) would be a GitHub Actions workflow command (``::error``,
``::add-mask``, ``::stop-commands``), so its first colon is escaped (``\\::error``), and so is the
legacy ``##[`` anywhere. Where a line is expected the text is one line (``\\n`` shown as ``⏎``).

- :func:`terminal_text`: a plain string to print with markup off (``typer.echo``, ``markup=False``);
- :func:`terminal_markup`: the same with Rich markup escaped, to put inside our own markup;
- :func:`terminal_line`: a Rich ``Text`` (never read as markup), for table cells and ``console.print``;
- :func:`safe_console`: the Rich console every command prints through, a net under the three
  above for a string a writer passed unsanitised: control characters in any string it is given are
  shown as escapes, a string whose markup Rich cannot read is printed as plain text instead of
  raising (an answer starting ``[/x]`` once replaced a run's exit code with 1), and a line it
  writes never starts with ``::``.
"""

from __future__ import annotations

import functools
import re
import sys
from typing import Any

# rich is imported inside the two functions that build its objects: this leaf loads with `copilot-eval --help`, which
# must stay fast without rich.

# C0 but tab and newline (handled below), DEL, C1; bidirectional embeddings, overrides and isolates;
# lone surrogates, which no terminal encoding can write (printing one raised).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_COMMAND_AT_START = re.compile(r"^([ \t]*):(?=:)", re.MULTILINE)
_LEGACY_COMMAND = re.compile(r"##\[")
# rich.markup.escape's rule, kept here so that this leaf loads without rich: a backslash before
# every '[' that could open a tag (backslashes before it doubled), and a trailing backslash doubled
# so that it cannot escape a tag of ours that follows.
_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
NEWLINE_SHOWN = " ⏎ "
"""What a line break in untrusted text becomes where one line is expected."""
NO_COLOR_ENV = "NO_COLOR"
"""The variable that, set to any value (https://no-color.org), switches colour off in every console."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(value: Any, *, one_line: bool = True, limit: int | None = None) -> str:
    """``value`` as text a terminal shows and never obeys (see the module); cut to ``limit`` characters with ``…``."""
    text = "" if value is None else str(value)
    text = text.replace("\r\n", "\n")
    if one_line:
        text = text.replace("\n", NEWLINE_SHOWN).replace("\t", " ")
    if limit is not None and len(text) > limit:
        text = text[: max(0, limit - 1)] + "…"
    text = _CONTROL.sub(_escape, text)
    text = _LEGACY_COMMAND.sub(r"#\\#[", text)
    return _COMMAND_AT_START.sub(r"\1\\:", text)


def terminal_markup(value: Any, *, one_line: bool = True, limit: int | None = None) -> str:
    """:func:`terminal_text` with Rich markup escaped: safe inside a string Rich reads as markup."""
    text = terminal_text(value, one_line=one_line, limit=limit)
    text = _MARKUP_TAG.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", text)
    return text + "\\" if text.endswith("\\") and not text.endswith("\\\\") else text


def terminal_line(value: Any, *, one_line: bool = True, limit: int | None = None, style: str = "") -> Any:
    """:func:`terminal_text` as a Rich ``Text``: a table cell or a printed line that is never read as markup."""
    from rich.text import Text

    return Text(terminal_text(value, one_line=one_line, limit=limit), style=style)


# Line breaks and tabs are kept here: the console's own strings hold them; every other control is shown.
_CONSOLE_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _split_first_line(text: str) -> tuple[str, str]:
    """The rest of the line a write continues, and what follows it (each of its lines a line of its own)."""
    head, newline, rest = text.partition("\n")
    return head + newline, rest


class CommandGuard:
    """A text stream (stdout or stderr, looked up on each write) where no line starts a workflow command."""

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._at_line_start = True

    @property
    def stream(self) -> Any:
        """The stream written to now (pytest and typer's runner swap ``sys.stdout``)."""
        return sys.stderr if self._stderr else sys.stdout

    def write(self, text: str) -> int:
        """Write ``text``, with the first colon of any line that would start ``::`` escaped (and ``##[``)."""
        head, rest = ("", text) if self._at_line_start else _split_first_line(text)
        guarded = head + _COMMAND_AT_START.sub(r"\1\\:", rest)
        if text:
            self._at_line_start = text.endswith("\n")
        self.stream.write(_LEGACY_COMMAND.sub(r"#\\#[", guarded))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)  # flush, isatty, fileno, encoding: the real stream's


@functools.cache
def _console_class() -> type:
    from rich.console import Console
    from rich.errors import MarkupError

    class SafeConsole(Console):
        """A Rich console whose strings never control the terminal nor crash it (see :func:`safe_console`)."""

        def render_str(self, text: str, **options: Any) -> Any:
            text = _CONSOLE_CONTROL.sub(_escape, text)
            try:
                return super().render_str(text, **options)
            except MarkupError:  # markup that was not ours: shown as written
                return super().render_str(text, **{**options, "markup": False})

    return SafeConsole


def safe_console(*, stderr: bool = False, **options: Any) -> Any:
    """A Rich ``Console`` (``options`` as Rich's) guarded as the module says; writes to stdout, or stderr when asked."""
    options.setdefault("file", CommandGuard(stderr=stderr))
    return _console_class()(stderr=stderr, **options)


__all__ = [
    "NEWLINE_SHOWN",
    "NO_COLOR_ENV",
    "CommandGuard",
    "safe_console",
    "terminal_line",
    "terminal_markup",
    "terminal_text",
]
