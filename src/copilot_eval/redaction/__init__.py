"""One redactor for every secret the tool hands out: register the value once, scrub it everywhere.

A secret (a BYOK key read from ``api_key_env``, a GitHub token, a Copilot Studio secret or token)
is registered with the name of the variable it came from, at the moment the tool reads it. The
secrets of the environment (GitHub token variables, variables named like secrets, passwords in
connection strings and URLs: see :mod:`copilot_eval.redaction.environment`) are registered on the
redactor's first use, and again from the environment each Copilot runtime is started with: the
runtime, its MCP servers and the agent's shell inherit that environment and can print it.

Every output path then passes its text through :func:`redact` or :func:`redact_data`: the result
built by capture, ``summary()``, the evidence JSON, run files, the command's console, log records
and pytest's failure text. A value is replaced by ``[redacted:NAME]`` wherever it appears, also in
the forms it takes on the wire (URL-encoded, JSON-escaped, base64). Well-known token shapes (see
:mod:`copilot_eval.redaction.shapes`) are replaced by ``[redacted:KIND]`` even when no variable
held them.

This package sits below every layer (it imports nothing else of the project), so the lowest layer
(``evidence``) and the highest (``cli``, the pytest plugin) can both use it. The registry is
process-wide on purpose: a key read by one run may come back in the error text of another.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import threading
from collections.abc import Mapping
from typing import Any, TextIO, overload
from urllib.parse import quote, quote_plus

# The package's public names are listed in __all__; the helpers it uses from its own modules are
# bound under private names, so that the package binds no public name it does not list.
from copilot_eval.redaction.environment import GITHUB_TOKEN_VARIABLES, is_secret_name
from copilot_eval.redaction.environment import secret_header_values as _secret_header_values
from copilot_eval.redaction.environment import secret_values as _secret_values
from copilot_eval.redaction.shapes import SHAPE_KINDS
from copilot_eval.redaction.shapes import holds_shape as _holds_shape
from copilot_eval.redaction.shapes import scrub_shapes as _scrub_shapes

MIN_SECRET_LENGTH = 8
"""Shorter values are not registered: scrubbing them would mangle ordinary text (and ``no-key``
style placeholders are not secrets)."""

_lock = threading.Lock()
_secrets: dict[str, str] = {}  # secret form (raw or encoded) -> variable name
_pattern: re.Pattern[str] | None = None
_known_forms: tuple[str, ...] = ()  # the keys of _secrets, as an immutable snapshot for lock-free readers
_log_factory_installed = False
_environment_read = False  # the process environment is read on the redactor's first use


def marker(name: str) -> str:
    """The text that replaces a secret: ``[redacted:NAME]`` (a variable's name or a token kind)."""
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
    if not isinstance(value, str) or len(value) < MIN_SECRET_LENGTH or value in _secrets:
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


def register_environment_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """Register the secrets of an environment (default: this process's); return their variable names.

    Which variables count is decided in :mod:`copilot_eval.redaction.environment`. The redactor
    calls this itself on its first use, and the runtime pool with the environment of every runtime
    it starts; call it yourself after putting a secret into ``os.environ`` that no runtime was
    started with (a Python tool of yours reads it there). Repeating it costs a dict look-up per
    secret.
    """
    global _environment_read
    found = _secret_values(os.environ if environ is None else environ, minimum=MIN_SECRET_LENGTH)
    names = set()
    for name, value in found:
        register_secret(value, name)
        names.add(name)
    if environ is None:
        _environment_read = True
    _install_log_redaction()  # token shapes are scrubbed from log records even with nothing registered
    return sorted(names)


def register_server_secrets(servers: Mapping[str, Any]) -> list[str]:
    """Register the secrets of MCP server entries (name -> entry): ``env`` values named like secrets
    and ``headers`` that carry credentials; return the marker names (``SERVER.VARIABLE``).

    A server gets these values from its entry, and one that prints its environment or request
    headers sends them straight back into a tool result.
    """
    names = set()
    for server, entry in servers.items():
        if not isinstance(entry, Mapping):
            continue
        env, headers = entry.get("env"), entry.get("headers")
        found = [*_secret_values(env, minimum=MIN_SECRET_LENGTH)] if isinstance(env, Mapping) else []
        found += [*_secret_header_values(headers, minimum=MIN_SECRET_LENGTH)] if isinstance(headers, Mapping) else []
        for name, value in found:
            register_secret(value, f"{server}.{name}")
            names.add(f"{server}.{name}")
    return sorted(names)


def _start_up() -> None:
    """The first use: read the process environment once (cheap: its names, then a few values)."""
    if not _environment_read:
        register_environment_secrets()


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


def _holds_registered(text: str) -> bool:
    # Plain substring tests run at C speed; the regex only runs on the rare text that needs it.
    forms = _known_forms
    return bool(forms) and any(form in text for form in forms)


def contains_secret(text: str) -> bool:
    """Whether ``text`` contains a registered secret in any of its forms, or a token shape."""
    if not _environment_read:
        _start_up()
    return isinstance(text, str) and (_holds_registered(text) or _holds_shape(text))


@overload
def redact(text: str) -> str: ...
@overload
def redact(text: None) -> None: ...
def redact(text: str | None) -> str | None:
    """``text`` with every registered secret and token shape replaced by its marker (unchanged when none;
    ``None`` stays ``None``, so an optional field can be passed as it is)."""
    if not _environment_read:
        _start_up()
    if not isinstance(text, str):
        return text
    pattern = _pattern
    if pattern is not None and _holds_registered(text):
        text = pattern.sub(lambda match: marker(_secrets.get(match.group(0), "secret")), text)
    return _scrub_shapes(text, marker)


def redact_bytes(data: bytes) -> bytes:
    """UTF-8 ``data`` with every secret replaced (bytes that are not UTF-8 pass as is)."""
    text = data.decode("utf-8", errors="surrogateescape")
    redacted = redact(text)
    return data if redacted == text else redacted.encode("utf-8", errors="surrogateescape")


def _probe_is_clean(value: Any) -> bool | None:
    """True when the JSON of ``value`` shows no secret; None when it has no JSON form."""
    try:
        probe = json.dumps(value, default=str, check_circular=False)
    except (TypeError, ValueError, RecursionError):  # keys JSON cannot show, or a cycle: walk it instead
        return None
    # The JSON-escaped form of every secret is registered, and the shapes allow JSON escapes, so
    # the dump shows any secret inside.
    return not (_holds_registered(probe) or _holds_shape(probe))


def redact_data(value: Any) -> Any:
    """A JSON-like value (dicts, lists, tuples, strings) with every string redacted.

    Containers are copied only when something inside them changed. Dict keys are redacted too (an
    HTTP header map can use a token as a key). Clean data costs one JSON dump and a substring scan.
    """
    if not _environment_read:
        _start_up()
    if isinstance(value, str):
        return redact(value)
    if not isinstance(value, (list, tuple, Mapping)) or _probe_is_clean(value):
        return value
    if isinstance(value, (list, tuple)):  # each item probed on its own: only a dirty event is walked
        redacted = [redact_data(item) for item in value]
        if all(new is old for new, old in zip(redacted, value, strict=True)):
            return value
        return type(value)(redacted) if isinstance(value, tuple) else redacted
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

    Installed on the redactor's first use (token shapes are scrubbed even with nothing registered).
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
    "GITHUB_TOKEN_VARIABLES",
    "MIN_SECRET_LENGTH",
    "SHAPE_KINDS",
    "RedactingStream",
    "contains_secret",
    "forget_secrets",
    "is_secret_name",
    "marker",
    "redact",
    "redact_bytes",
    "redact_data",
    "redact_log_record",
    "register_environment_secrets",
    "register_secret",
    "register_server_secrets",
    "registered_secret_names",
]
