"""Well-known token shapes, scrubbed wherever they appear, registered or not.

A registered secret is found by its value. These are found by their look: a token a tool or a
server prints that no variable of ours ever held (a key in a config file the agent read, a token
in another program's output). Each shape is narrow on purpose, so ordinary text, UUIDs, hashes,
base64 images and the project's own ids are left alone:

- GitHub tokens: ``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_`` and ``github_pat_`` followed by
  at least 20 token characters, not glued to a longer word;
- ``sk-`` keys (OpenAI, Anthropic and the many services that copied the form): at least 20 key
  characters with a letter and a digit among them, at the start of a word (``task-`` and
  ``risk-free`` are words, not keys);
- AWS access key ids: ``AKIA`` or ``ASIA`` and 16 upper-case letters or digits, exactly;
- Slack tokens: ``xox`` + one letter + ``-`` and at least 10 token characters with a digit;
- JWTs: three base64url parts separated by dots, the first one starting ``eyJ`` (``{"``);
- private key blocks (PEM): from ``-----BEGIN ... PRIVATE KEY-----`` to its END line, or to
  the end of the key text when the block was cut off, also when its newlines are JSON-escaped.

This module is a leaf: it imports nothing of the project.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["SHAPE_KINDS", "holds_shape", "scrub_shapes"]

_PEM_BODY = r"(?:[A-Za-z0-9+/=\s:,.\-]|\\+[nrt])"  # key text, with raw or JSON-escaped newlines
_PEM_CUT_BODY = r"(?:[A-Za-z0-9+/=\s]|\\+[nrt])"  # no '-': stops before anything that is not key text
_PEM_END = r"-----END [A-Z0-9 ]*PRIVATE KEY-----"

# (kind, anchor, pattern); the kind is the marker's name. The anchor is a literal every match
# contains: plain substring tests and regexes that start with a literal scan at C speed, so clean
# text costs a few fast scans; the full pattern (with its look-arounds) only runs where its anchor
# is found. One alternation of every pattern scanned about 25 times slower.
_SHAPES: tuple[tuple[str, str, str], ...] = (
    ("github-token", "gh[pousr]_", r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{20,}(?![A-Za-z0-9_])"),
    ("github-token", "github_pat_", r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}"),
    ("api-key", "sk-", r"(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}"),
    ("aws-access-key-id", "A[KS]IA", r"(?<![A-Za-z0-9])A[KS]IA[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("slack-token", "xox[a-z]-", r"(?<![A-Za-z0-9])xox[a-z]-(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9-]{10,}"),
    ("jwt", "eyJ", r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"),
    (
        "private-key",
        "PRIVATE KEY",
        rf"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:{_PEM_BODY}*?{_PEM_END}|{_PEM_CUT_BODY}*)",
    ),
)
SHAPE_KINDS: tuple[str, ...] = tuple(dict.fromkeys(kind for kind, _, _ in _SHAPES))
"""The kinds of token recognised by shape; a marker names the kind, ``[redacted:github-token]``."""


def _anchor(anchor: str) -> Callable[[str], object]:
    """A test for the anchor: a substring test, or a regex search when it has a character class."""
    if "[" in anchor:
        return re.compile(anchor).search
    return lambda text: anchor in text


_COMPILED = tuple((kind, _anchor(anchor), re.compile(pattern)) for kind, anchor, pattern in _SHAPES)


def holds_shape(text: str) -> bool:
    """Whether ``text`` holds a token shape."""
    return any(found(text) and pattern.search(text) for _, found, pattern in _COMPILED)


def scrub_shapes(text: str, marker: Callable[[str], str]) -> str:
    """``text`` with every token shape replaced by ``marker(kind)`` (the same object when it holds none)."""
    for kind, found, pattern in _COMPILED:
        if found(text) and pattern.search(text):
            text = pattern.sub(_constant(marker(kind)), text)
    return text


def _constant(replacement: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: replacement
