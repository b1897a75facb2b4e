"""One comment per pull request and key, kept up to date: found by its hidden marker, updated, never doubled.

The body's first line is ``<!-- copilot-eval:KEY:TAG -->``, which GitHub does not show; TAG is a
digest of the repository and the key (no secret in it: it keeps keys and repositories apart, not
people). A comment is ours only when it **starts** with that line **and** was written by the
token's own account (``GET /user``; a GitHub App's token, such as a workflow's ``GITHUB_TOKEN``,
may not ask, and then only a bot's comment qualifies, never a person's). Text quoted inside
another comment never counts, and the body we post is passed through the Markdown sanitiser's
``md_without_markers``, so no answer inside it can carry a marker either. Posting looks through
every page of the pull request's comments: found, the oldest such comment is updated; not found,
one is created. Comments that carried the marker of earlier versions
(``<!-- copilot-eval:KEY -->``, also on the first line, also by the same account) are taken over
once, so an upgrade does not leave a second comment.

A body over GitHub's limit is cut at a line boundary, before a table row rather than inside one,
with a line saying how many rows were left out and where the whole report is.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from copilot_eval.github.client import GitHubComments
from copilot_eval.github.errors import NotFoundError
from copilot_eval.untrusted.markdown import md_without_markers

COMMENT_LIMIT = 65536
"""The longest comment body GitHub accepts, in characters."""

DEFAULT_KEY = "gate"
"""The key of the comment ``copilot-eval comment`` keeps when no ``--key`` is given."""

_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def _checked(key: str) -> str:
    if not _KEY.match(key):
        raise ValueError(
            f"--key {key!r}: use letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit)"
        )
    return key


def marker(key: str, repo: str = "") -> str:
    """The hidden first line that names the comment: ``<!-- copilot-eval:KEY:TAG -->`` (TAG: repository and key)."""
    tag = hashlib.sha256(f"copilot-eval comment\0{repo.lower()}\0{_checked(key)}".encode()).hexdigest()[:16]
    return f"<!-- copilot-eval:{key}:{tag} -->"


def _legacy_marker(key: str) -> str:
    """The marker of earlier versions, still recognised on the first line of the account's own comment."""
    return f"<!-- copilot-eval:{_checked(key)} -->"


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
    text: str, *, key: str = DEFAULT_KEY, repo: str = "", full_report: str | None = None, limit: int = COMMENT_LIMIT
) -> FittedBody:
    """The comment body (marker first) for ``text``, cut to ``limit`` at a line boundary when longer.

    Any marker-like opening inside ``text`` is shown as text (``&lt;!-- copilot-eval``): only the first line is one.
    """
    head = marker(key, repo) + "\n"
    text = md_without_markers(text)
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


def _written_by(comment: dict[str, Any], login: str | None) -> bool:
    user = comment.get("user")
    if not isinstance(user, dict):
        return False
    if login is not None:
        return bool(user.get("login") == login)
    return user.get("type") == "Bot"  # the token could not say who it is: an app's token, so an app's comment


def find_marked(
    comments: list[dict[str, Any]], key: str, *, repo: str = "", login: str | None = None
) -> dict[str, Any] | None:
    """The oldest comment that starts with the key's marker and was written by ``login`` (None: by a bot), or None."""
    heads = (marker(key, repo), _legacy_marker(key))
    marked = [
        c
        for c in comments
        if isinstance(c.get("body"), str)
        and c["body"].split("\n", 1)[0].rstrip("\r") in heads
        and _written_by(c, login)
    ]
    return min(marked, key=lambda c: c.get("id", 0)) if marked else None


async def post_sticky(
    client: GitHubComments, number: int, text: str, *, key: str = DEFAULT_KEY, full_report: str | None = None
) -> PostedComment:
    """Update the pull request's comment of ``key`` written by the token's account, else create it; never a second."""
    fitted = fit_body(text, key=key, repo=client.repo, full_report=full_report)
    login = await client.token_login()
    found = find_marked(await client.list_comments(number), key, repo=client.repo, login=login)
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
