"""Did-you-mean for field names: typos and other spellings (``timout_s``, ``mcpServers``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def _folded(name: str) -> str:
    # camelCase, kebab-case and snake_case spellings of one name fold to the same key.
    return name.replace("_", "").replace("-", "").lower()


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` was most likely meant to be, or ``None``."""
    choices = list(known)
    folded = {_folded(choice): choice for choice in choices}
    if _folded(name) in folded:
        return folded[_folded(name)]
    match = difflib.get_close_matches(name, choices, n=1, cutoff=0.75)
    return match[0] if match else None


def unknown_key(name: str, known: Iterable[str]) -> str:
    """``unknown key 'x'`` with a did-you-mean when one is close."""
    guess = closest(name, known)
    return f"unknown key {name!r}" + (f" (did you mean {guess!r}?)" if guess else "")
