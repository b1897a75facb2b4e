"""Untrusted text for Markdown that GitHub renders (a pull-request comment, a step summary): shown, never rendered.

The choice: **backslash escapes and entities**, not code spans. Text stays ordinary prose a
reviewer reads (a code span would turn every answer monospace and still needs its own fence
length), and every character the agent wrote is shown as written:

- ``\\ ` * ~ [ ] | #`` (and ``_`` at a word's edge) get a backslash, so no emphasis, link, image (``![..](..)``), table cell
  or heading comes out of them; ``<`` and ``&`` become ``&lt;`` and ``&amp;``, so no raw HTML
  (``<img src=...>``, ``</details>``, ``<!-- -->``) and no entity trick. The sticky
  comment's marker starts with ``<!--``, so sanitised text can never hold it.
- ``@name`` and ``#123`` get a zero-width space after ``@`` / ``#`` (shown the same), so nobody is
  notified and no issue gets a back-reference from a quoted answer.
- Inline text is one line (line breaks become ``⏎``), so nothing starts a block of its own; other
  control characters (ESC, NUL) are shown as their escapes (``\\x1b``), as in the terminal.
- Bare addresses (``https://...``) stay text GitHub may autolink: the address shown is the one
  followed, and no image is ever loaded from one.

:func:`md_code_block` puts untrusted lines in a fenced block whose fence is longer than any run of
backticks inside, so a line holding a fence cannot close it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_SPECIAL = re.compile(r"([\\`*~\[\]|#])")
# An underscore inside a word (``export_healthy``) emphasises nothing on GitHub: only one at a word's edge is escaped.
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_ENTITIES = {"&": "&amp;", "<": "&lt;"}  # '>' opens nothing; it is left readable in the Markdown source
_MENTION = re.compile(r"([@#])(?=[\w-])")
_ZERO_WIDTH_SPACE = "\u200b"
# A line break, and what could make a comment line a marker or a fence: see md_without_markers.
_MARKER_OPENING = re.compile(r"<!--\s*copilot-eval", re.IGNORECASE)
_NEWLINES = re.compile(r"\r\n|[\r\n\u2028\u2029\x85\x0b\x0c]")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
LINE_BREAK_SHOWN = " ⏎ "
"""What a line break in untrusted text becomes inside one Markdown line (a table cell, a list item)."""


def _shown(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"


def md_inline(value: Any, *, limit: int | None = None) -> str:
    """``value`` as one line of inert Markdown text (see the module), cut to ``limit`` characters with ``…``."""
    if value is None:
        return ""
    text = _NEWLINES.sub(LINE_BREAK_SHOWN, str(value))
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[: max(0, limit - 1)] + "…"
    text = _CONTROL.sub(_shown, text)  # as the terminal shows them (\x1b): the reader sees which one was there
    text = "".join(_ENTITIES.get(char, char) for char in text)
    # '#' is escaped after the mention rule reads it, so '#12' becomes '\#<ZWSP>12'.
    text = _MENTION.sub(lambda m: m.group(1) + _ZERO_WIDTH_SPACE, text)
    return _EDGE_UNDERSCORE.sub(r"\\_", _SPECIAL.sub(r"\\\1", text))


def _longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max((len(run) for run in runs), default=0)


def md_code_block(lines: Iterable[Any], *, info: str = "") -> list[str]:
    """Lines of a fenced code block holding ``lines`` verbatim: the fence outlasts any backtick run in them."""
    body = [_CONTROL.sub(_shown, _NEWLINES.sub(LINE_BREAK_SHOWN, "" if line is None else str(line))) for line in lines]
    fence = "`" * max(3, _longest_run("\n".join(body), "`") + 1)
    return [f"{fence}{info}", *body, fence]


def md_without_markers(text: str) -> str:
    """``text`` (a whole Markdown document) with any ``<!-- copilot-eval`` opening made visible text."""
    return _MARKER_OPENING.sub(lambda m: "&lt;" + m.group()[1:], text)


__all__ = ["LINE_BREAK_SHOWN", "md_code_block", "md_inline", "md_without_markers"]
