"""One redactor for every secret the tool hands out: register the value once, scrub it everywhere.

A secret (a BYOK key read from ``api_key_env``, a GitHub token, a Copilot Studio secret or token)
is registered with the name of the variable it came from, at the moment the tool reads it. Every
output path then passes its text through :func:`redact` or :func:`redact_data`: the result built
by capture, ``summary()``, the evidence JSON, run files, the command's console, log records and
pytest's failure text. A value is replaced by ``[redacted:NAME]`` wherever it appears, also in
the forms it takes on the wire (URL-encoded, JSON-escaped, base64).

This module sits below every layer (it imports nothing of the project), so the lowest layer
(``evidence``) and the highest (``cli``, the pytest plugin) can both use it. The registry is
process-wide on purpose: a key read by one run may come back in the error text of another.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import threading
from collections.abc import Mapping
from typing import Any, TextIO, overload
from urllib.parse import quote, quote_plus

MIN_SECRET_LENGTH = 8
"""Shorter values are not registered: scrubbing them would mangle ordinary text (and ``no-key``
style placeholders are not secrets)."""

_lock = threading.Lock()
_secrets: dict[str, str] = {}  # secret form (raw or encoded) -> variable name
_pattern: re.Pattern[str] | None = None
_known_forms: tuple[str, ...] = ()  # the keys of _secrets, as an immutable snapshot for lock-free readers
_log_factory_installed = False


def marker(name: str) -> str:
    """The text that replaces a secret: ``[redacted:NAME]``."""
    return f"[redacted:{name}]"


def _forms(value: str) -> set[str]:
    """The value and the encodings in which it comes back from HTTP stacks and JSON."""
    forms = {value, quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1]}
    raw = value.encode("utf-8")
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        forms.add(encoded.decode("ascii"))
        forms.add(encoded.decode("ascii").rstrip("="))
    return {form for form in forms if len(form) >= MIN_SECRET_LENGTH}


def register_secret(value: str | None, name: str) -> None:
    """Scrub ``value`` (and its encoded forms) from everything the tool records or prints.

    ``name`` is what the marker shows, normally the environment variable the value was read from
    (characters other than letters, digits and ``_ . : -`` become ``_``).
    ``None``, empty and short values (under :data:`MIN_SECRET_LENGTH`) are ignored. Registering the
    same value again is cheap. Call it as soon as the secret is read, before it is used.
    """
    global _pattern, _known_forms
    if not isinstance(value, str) or len(value) < MIN_SECRET_LENGTH:
        return
    # The marker must stay plain text in JSON, CSV and Markdown: keep the name to safe characters.
    name = re.sub(r"[^A-Za-z0-9_.:-]", "_", str(name)) or "secret"
    with _lock:
        new = {form: name for form in _forms(value) if form not in _secrets}
        if not new:
            return
        _secrets.update(new)
        # Longest first, so a secret that contains another one is replaced whole.
        alternatives = sorted(_secrets, key=len, reverse=True)
        _known_forms = tuple(alternatives)
        _pattern = re.compile("|".join(re.escape(form) for form in alternatives))
    _install_log_redaction()


def forget_secrets() -> None:
    """Forget every registered secret (for tests that check registration itself)."""
    global _pattern, _known_forms
    with _lock:
        _secrets.clear()
        _known_forms = ()
        _pattern = None


def registered_secret_names() -> list[str]:
    """The variable names of the registered secrets (never the values), sorted."""
    return sorted(set(_secrets.values()))


def contains_secret(text: str) -> bool:
    """Whether ``text`` contains a registered secret in any of its forms."""
    # Plain substring tests run at C speed; the regex only runs on the rare text that needs it.
    forms = _known_forms
    return bool(forms) and isinstance(text, str) and any(form in text for form in forms)


@overload
def redact(text: str) -> str: ...
@overload
def redact(text: None) -> None: ...


def redact(text: str | None) -> str | None:
    """``text`` with every registered secret replaced by its marker (unchanged when none; ``None``
    stays ``None``, so an optional field can be passed as it is)."""
    pattern = _pattern
    if pattern is None or text is None or not contains_secret(text):
        return text
    return pattern.sub(lambda match: marker(_secrets.get(match.group(0), "secret")), text)


def redact_bytes(data: bytes) -> bytes:
    """UTF-8 ``data`` with every registered secret replaced (bytes that are not UTF-8 pass as is)."""
    if _pattern is None:
        return data
    text = data.decode("utf-8", errors="surrogateescape")
    return redact(text).encode("utf-8", errors="surrogateescape") if contains_secret(text) else data


def redact_data(value: Any) -> Any:
    """A JSON-like value (dicts, lists, tuples, strings) with every string redacted.

    Containers are copied only when something inside them changed. Dict keys are redacted too (an
    HTTP header map can use a token as a key). Clean data costs one JSON dump and a substring scan:
    the JSON-escaped form of every secret is registered, so the dump shows any secret inside.
    """
    if _pattern is None:
        return value
    if isinstance(value, (list, tuple)):  # each item probed on its own: only a dirty event is walked
        redacted = [redact_data(item) for item in value]
        if all(new is old for new, old in zip(redacted, value, strict=True)):
            return value
        return type(value)(redacted) if isinstance(value, tuple) else redacted
    if isinstance(value, Mapping):
        try:
            probe = json.dumps(value, default=str)
        except (TypeError, ValueError):  # keys JSON cannot show, or a cycle: walk it instead
            probe = None
        if probe is not None and not contains_secret(probe):
            return value
    return _redact_walk(value)


def _redact_walk(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        items = [(_redact_walk(key), _redact_walk(item)) for key, item in value.items()]
        if all(
            new_key is key and new is item for (new_key, new), (key, item) in zip(items, value.items(), strict=True)
        ):
            return value
        return dict(items)
    if isinstance(value, (list, tuple)):
        redacted = [_redact_walk(item) for item in value]
        if all(new is old for new, old in zip(redacted, value, strict=True)):
            return value
        return type(value)(redacted) if isinstance(value, tuple) else redacted
    return value


# -- logging and streams -------------------------------------------------------------------------
def _install_log_redaction() -> None:
    """Redact every log record of the process at creation, whichever handler later writes it.

    Installed on the first registration only, so a process with no secrets pays nothing.
    """
    global _log_factory_installed
    with _lock:
        if _log_factory_installed:
            return
        _log_factory_installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        redact_log_record(record)
        return record

    logging.setLogRecordFactory(factory)


def redact_log_record(record: logging.LogRecord) -> logging.LogRecord:
    """Replace a record's message (and formatted traceback) by its redacted text, in place."""
    try:
        message = record.getMessage()
    except Exception:
        return record
    if contains_secret(message):
        record.msg, record.args = redact(message), None
    if record.exc_info and record.exc_text is None:
        text = logging.Formatter().formatException(record.exc_info)
        if contains_secret(text):
            record.exc_text = redact(text)
    return record


class RedactingStream:
    """A text stream that redacts what is written before passing it on (for a console's stdout)."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        """Write the redacted text; returns the length of the text given, as callers expect."""
        self._inner.write(redact(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        """Write each line, redacted."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        # flush, isatty, fileno, encoding ... come from the wrapped stream.
        return getattr(self._inner, name)


__all__ = [
    "MIN_SECRET_LENGTH",
    "RedactingStream",
    "contains_secret",
    "forget_secrets",
    "marker",
    "redact",
    "redact_bytes",
    "redact_data",
    "redact_log_record",
    "register_secret",
    "registered_secret_names",
]
