"""One comment per pull request and key, kept up to date: found by its hidden marker, updated, never doubled.

The body starts with ``<!-- copilot-eval:KEY -->``, which GitHub does not show. Posting looks
through every page of the pull request's comments for the marker: found, that comment is
updated (the oldest, should there ever be more than one); not found, one is created. A body over
GitHub's limit is cut at a line boundary, before a table row rather than inside one, with a line
saying how many rows were left out and where the whole report is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from copilot_eval.github.client import GitHubComments
from copilot_eval.github.errors import NotFoundError

COMMENT_LIMIT = 65536
"""The longest comment body GitHub accepts, in characters."""

DEFAULT_KEY = "gate"
"""The key of the comment ``copilot-eval comment`` keeps when no ``--key`` is given."""

_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def marker(key: str) -> str:
    """The hidden line that names the comment: ``<!-- copilot-eval:KEY -->``."""
    if not _KEY.match(key):
        raise ValueError(
            f"--key {key!r}: use letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit)"
        )
    return f"<!-- copilot-eval:{key} -->"


def _length(text: str) -> int:
    # GitHub's limit is in characters; counting UTF-16 units is never less than code points, so a
    # body of emoji or other astral characters stays inside it whichever GitHub counts.
    return len(text.encode("utf-16-le")) // 2


def _is_separator(line: str) -> bool:
    return bool(re.fullmatch(r"\|[\s:|-]*\|?", line.strip())) and "-" in line


def _rows(lines: list[str]) -> int:
    """Table rows among ``lines``: lines of a table that are neither its header nor the line under it."""
    count = 0
    for index, line in enumerate(lines):
        header = index + 1 < len(lines) and _is_separator(lines[index + 1])
        count += line.strip().startswith("|") and not _is_separator(line) and not header
    return count


@dataclass(frozen=True)
class FittedBody:
    """The body to post and what was cut to fit: table rows and other lines left out."""

    body: str
    rows_left_out: int = 0
    lines_left_out: int = 0

    @property
    def cut(self) -> bool:
        """Whether anything was left out."""
        return bool(self.rows_left_out or self.lines_left_out)


def _cut_note(rows: int, lines: int, full_report: str | None, limit: int) -> str:
    parts = [f"{rows:,} table row{'s' if rows != 1 else ''}"] if rows else []
    if lines:
        parts.append(f"{lines:,} other line{'s' if lines != 1 else ''}")
    where = f"the full report: {full_report}" if full_report else "the full report is in the job's step summary"
    return f"\n\n> **Cut to fit GitHub's {limit:,}-character limit:** {' and '.join(parts)} left out; {where}\n"


def _closers(kept: list[str]) -> str:
    """What closes a code block or a ``<details>`` left open by the cut."""
    text = "\n".join(kept)
    close = "\n```" if sum(line.lstrip().startswith("```") for line in kept) % 2 else ""
    opened = len(re.findall(r"<details\b", text, re.IGNORECASE)) - len(re.findall(r"</details>", text, re.IGNORECASE))
    return close + "\n</details>" * max(0, opened)


def fit_body(
    text: str, *, key: str = DEFAULT_KEY, full_report: str | None = None, limit: int = COMMENT_LIMIT
) -> FittedBody:
    """The comment body (marker first) for ``text``, cut to ``limit`` at a line boundary when longer."""
    head = marker(key) + "\n"
    whole = head + text
    if _length(whole) <= limit:
        return FittedBody(whole)
    lines = text.splitlines()
    # The note's own length depends on the counts; a generous stand-in keeps room for it.
    room = limit - _length(head) - _length(_cut_note(10**9, 10**9, full_report, limit)) - 200
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + _length(line) + 1 > room:
            break
        kept.append(line)
        used += _length(line) + 1
    # A table's header and the line under it are not left without a row below them.
    if kept and _is_separator(kept[-1]):
        kept.pop()
        if kept and kept[-1].strip().startswith("|"):
            kept.pop()
    left = lines[len(kept) :]
    rows = _rows(left)
    note = _cut_note(rows, len(left) - rows, full_report, limit)
    return FittedBody(head + "\n".join(kept) + _closers(kept) + note, rows, len(left) - rows)


@dataclass(frozen=True)
class PostedComment:
    """What posting did: ``created`` or ``updated``, the comment's id and web address, and the cut."""

    action: str
    comment_id: int
    html_url: str | None
    fitted: FittedBody


def find_marked(comments: list[dict[str, Any]], key: str) -> dict[str, Any] | None:
    """The oldest comment whose body holds the key's marker, or None."""
    tag = marker(key)
    marked = [c for c in comments if isinstance(c.get("body"), str) and tag in c["body"]]
    return min(marked, key=lambda c: c.get("id", 0)) if marked else None


async def post_sticky(
    client: GitHubComments, number: int, text: str, *, key: str = DEFAULT_KEY, full_report: str | None = None
) -> PostedComment:
    """Update the pull request's comment of ``key``, or create it when there is none; never a second one."""
    fitted = fit_body(text, key=key, full_report=full_report)
    found = find_marked(await client.list_comments(number), key)
    if found is not None:
        try:
            done = await client.update_comment(int(found["id"]), fitted.body)
            return PostedComment("updated", int(done["id"]), done.get("html_url"), fitted)
        except NotFoundError:
            pass  # deleted between the listing and the update: there is none now
    done = await client.create_comment(number, fitted.body)
    return PostedComment("created", int(done["id"]), done.get("html_url"), fitted)


__all__ = [
    "COMMENT_LIMIT",
    "DEFAULT_KEY",
    "FittedBody",
    "PostedComment",
    "find_marked",
    "fit_body",
    "marker",
    "post_sticky",
]
