"""Did-you-mean for the keys of the files people write: typos and other spellings (``timout_s``, ``mcpServers``).

A leaf module, so that every reader of a user's file (agent files, Copilot Studio target files,
trajectory files) answers an unknown key the same way: the key, the known key it was most likely
meant to be, or the keys it could be.
"""

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


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a known key is close to ``name``, else an empty string."""
    guess = closest(name, known)
    return f" (did you mean {guess!r}?)" if guess else ""


def unknown_key(name: str, known: Iterable[str]) -> str:
    """``unknown key 'x'`` with a did-you-mean when one is close."""
    return f"unknown key {name!r}" + did_you_mean(name, known)


def unknown_keys(names: Iterable[str], known: Iterable[str], *, what: str = "key") -> str | None:
    """``unknown key(s) 'a' (did you mean 'b'?), 'c' (expected ...)`` for the names not known; ``None`` when all are."""
    allowed = list(known)
    extra = [str(name) for name in names if name not in allowed]
    if not extra:
        return None
    shown = ", ".join(f"{name!r}{did_you_mean(name, allowed)}" for name in extra)
    return f"unknown {what}(s) {shown} (expected {', '.join(allowed)})"


__all__ = ["closest", "did_you_mean", "unknown_key", "unknown_keys"]
