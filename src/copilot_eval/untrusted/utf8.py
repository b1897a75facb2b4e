"""Untrusted text for JSON and other files on disk: always valid UTF-8, the rest kept as it was.

Python strings can hold lone surrogates (``json.loads('"\\\\ud800"')`` makes one; a Copilot Studio
answer carried one), which UTF-8 cannot encode: writing them raised, and one character cost the
whole run. Bytes read from elsewhere may not be UTF-8 at all. Both are replaced by U+FFFD, the
Unicode replacement character; every other character, and the case of every letter, is kept.
"""

from __future__ import annotations

import json
from typing import Any

REPLACEMENT = "\ufffd"


def utf8_text(value: str | bytes) -> str:
    """``value`` as a string UTF-8 can encode: lone surrogates (or invalid bytes) become U+FFFD."""
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        # A valid surrogate pair held as two code points (from "surrogatepass" decoding) is kept as its character.
        joined = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        return "".join(REPLACEMENT if 0xD800 <= ord(char) <= 0xDFFF else char for char in joined)


def utf8_data(value: Any) -> Any:
    """``value`` (JSON-shaped: dicts, lists, strings, numbers) with every string and key made :func:`utf8_text`."""
    if isinstance(value, str):
        return utf8_text(value)
    if isinstance(value, dict):
        return {utf8_data(key): utf8_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [utf8_data(item) for item in value]
    return value


def json_text(data: Any, **options: Any) -> str:
    """``json.dumps`` of ``data`` (``ensure_ascii`` off unless given) with every string made :func:`utf8_text` first."""
    options.setdefault("ensure_ascii", False)
    return json.dumps(utf8_data(data), **options)


def model_json(model: Any, *, indent: int | None = None, **options: Any) -> str:
    """A pydantic model's JSON (``model_dump_json(**options)``); a lone surrogate in it becomes U+FFFD, not an error."""
    try:
        return str(model.model_dump_json(indent=indent, **options))
    except ValueError as exc:  # pydantic's serialisation error: UTF-8 cannot hold a lone surrogate
        if "surrogates not allowed" not in str(exc):
            raise
    return json_text(model.model_dump(mode="json", **options), indent=indent)


__all__ = ["REPLACEMENT", "json_text", "model_json", "utf8_data", "utf8_text"]
