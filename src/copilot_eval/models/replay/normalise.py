"""Request bodies without their volatile parts, the stable key they are matched by, and how two differ.

Two runs of the same test send the same request except for what changes by itself: the
timestamp in every prompt, the run's working directory, the session folder under the tool's
cache, ids (uuids). Those are replaced by placeholders before a request is stored or matched.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from typing import Any

from copilot_eval.redaction import MIN_SECRET_LENGTH, redact
from copilot_eval.redaction.environment import secret_values as _environment_secrets

__all__ = [
    "WORKING_DIRECTORY",
    "diff_fields",
    "normalise_body",
    "normalise_text",
    "request_key",
    "scrub_secrets",
    "secret_values",
]

WORKING_DIRECTORY = "<working_directory>"
_PATTERNS = (
    # ISO date-times and dates (the runtime's <current_datetime>, dates in tool output).
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"), "<datetime>"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE), "<uuid>"),
    # Each run's COPILOT_HOME: .../sessions/home-<pid>-<random>/... (older: home-<random>)
    (re.compile(r"home-(?:\d+-)?[A-Za-z0-9_]{6,}"), "home-<id>"),
)
# Fields whose value is minted per session (a cache key derived from the session id, a user id).
VOLATILE_FIELDS = frozenset({"prompt_cache_key", "user", "safety_identifier"})


def secret_values() -> list[str]:
    """The environment's secrets as the redactor judges them (by name and by form): never written to a cassette.

    Read afresh on every call, unlike the redactor's own start-up read: a test may put its key into
    the environment after the redactor's first use.
    """
    found = _environment_secrets(os.environ, minimum=MIN_SECRET_LENGTH)
    return sorted({value for _name, value in found}, key=len, reverse=True)


def normalise_text(text: str, working_directory: str | None) -> str:
    """One string with the working directory, temporary paths, dates and ids replaced by placeholders."""
    if working_directory:
        text = text.replace(working_directory, WORKING_DIRECTORY)
    for pattern, placeholder in _PATTERNS:
        text = pattern.sub(placeholder, text)
    temp = tempfile.gettempdir().rstrip("/")
    text = re.sub(re.escape(temp) + r"/[A-Za-z0-9._-]+", "<tmp>", text)
    return scrub_secrets(text)


def scrub_secrets(text: str) -> str:
    """``text`` with registered secrets and the value of every secret-named environment variable removed."""
    text = redact(text)  # the process-wide redactor of registered secrets (BYOK keys, tokens)
    for secret in secret_values():
        text = text.replace(secret, "<redacted>")
    return text


def normalise_body(body: Any, working_directory: str | None) -> Any:
    """A JSON value with every string normalised and per-session fields (VOLATILE_FIELDS) replaced."""
    if isinstance(body, str):
        return normalise_text(body, working_directory)
    if isinstance(body, dict):
        return {
            key: "<volatile>"
            if key in VOLATILE_FIELDS and isinstance(value, str)
            else normalise_body(value, working_directory)
            for key, value in body.items()
        }
    if isinstance(body, list):
        return [normalise_body(item, working_directory) for item in body]
    return body


def request_key(normalised: Any) -> str:
    """SHA-256 of the normalised body as canonical JSON (sorted keys, no spaces)."""
    canonical = json.dumps(normalised, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def diff_fields(expected: Any, actual: Any, path: str = "", limit: int = 6) -> list[str]:
    """Readable differences between two normalised bodies: ``path: recorded ... != now ...``."""
    out: list[str] = []
    _diff(expected, actual, path or "body", out, limit)
    return out


def _short(value: Any, width: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


_MISSING = object()  # a key or index one side of a diff lacks


def _members(expected: Any, actual: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    # (path, recorded, now) for every key of two dicts or index of two lists; _MISSING where a side lacks it
    if isinstance(expected, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            yield f"{path}.{key}", expected.get(key, _MISSING), actual.get(key, _MISSING)
        return
    for index in range(max(len(expected), len(actual))):
        recorded = expected[index] if index < len(expected) else _MISSING
        yield f"{path}[{index}]", recorded, actual[index] if index < len(actual) else _MISSING


def _diff(expected: Any, actual: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit or expected == actual:
        return
    if (isinstance(expected, dict) and isinstance(actual, dict)) or (
        isinstance(expected, list) and isinstance(actual, list)
    ):
        for where, recorded, now in _members(expected, actual, path):
            if now is _MISSING:
                out.append(f"{where}: recorded {_short(recorded)}, now missing")
            elif recorded is _MISSING:
                out.append(f"{where}: not recorded, now {_short(now)}")
            else:
                _diff(recorded, now, where, out, limit)
            if len(out) >= limit:
                return
        return
    if isinstance(expected, str) and isinstance(actual, str):
        out.append(f"{path}: {_text_diff(expected, actual)}")
        return
    out.append(f"{path}: recorded {_short(expected)}, now {_short(actual)}")


def _text_diff(expected: str, actual: str) -> str:
    """Where two long strings part: the recorded and the current text around the first difference."""
    start = next(
        (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b), min(len(expected), len(actual))
    )
    begin = max(0, start - 30)
    return f"recorded {_short(expected[begin : start + 60])}, now {_short(actual[begin : start + 60])}" + (
        f" (from character {start})" if begin else ""
    )
