"""Untrusted text for a terminal or a CI log: seen as text, never obeyed.

What a terminal or a CI runner would act on is shown as an escape instead: C0 and C1 control
characters and DEL (ESC starts colour, cursor moves, a window title, a hyperlink; NUL and BEL
too), and the invisible bidirectional controls that reorder what a reader sees. A line that
would start with ``::`` (after spaces) would be a GitHub Actions workflow command (``::error``,
``::add-mask``, ``::stop-commands``), so its first colon is escaped (``\\::error``), and so is the
legacy ``##[`` anywhere. Where a line is expected the text is one line (``\\n`` shown as ``⏎``).

- :func:`terminal_text`: a plain string to print with markup off (``typer.echo``, ``markup=False``);
- :func:`terminal_markup`: the same with Rich markup escaped, to put inside our own markup;
- :func:`terminal_line`: a Rich ``Text`` (never read as markup), for table cells and ``console.print``.
"""

from __future__ import annotations

import re
from typing import Any

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


__all__ = ["NEWLINE_SHOWN", "terminal_line", "terminal_markup", "terminal_text"]
