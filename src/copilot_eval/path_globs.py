"""Glob patterns over ``/``-separated relative paths, as instruction files' ``applyTo`` and workspaces' globs write them.

One translation for both readers: ``**/`` is any number of folders (none included), ``**`` anything,
``*`` anything within one path part, ``?`` one character of a part; every other character is itself.
Where a pattern is anchored is each reader's own rule, so this returns the expression's body only.
"""

from __future__ import annotations

import re


def glob_regex(glob: str) -> str:
    """The body of a regular expression that matches what ``glob`` matches (no anchors)."""
    out, index = [], 0
    while index < len(glob):
        if glob.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif glob.startswith("**", index):
            out.append(".*")
            index += 2
        elif glob[index] == "*":
            out.append("[^/]*")
            index += 1
        elif glob[index] == "?":
            out.append("[^/]")
            index += 1
        else:
            out.append(re.escape(glob[index]))
            index += 1
    return "".join(out)


__all__ = ["glob_regex"]
