"""Which environment variables hold secrets: decided here, by name and by the form of the value.

The Copilot runtime, every MCP server it starts and the agent's shell inherit the environment
they are given, and a tool that prints its environment (many servers have one, for diagnostics)
puts all of it into a tool result. So the values that look like secrets are registered with the
redactor before anything can come back:

- the GitHub token variables (``COPILOT_GITHUB_TOKEN``, ``GH_TOKEN``, ``GITHUB_TOKEN``), whatever
  the model of the run: the runtime and its servers inherit them either way;
- variables whose names end in ``TOKEN``, ``SECRET``, ``PASSWORD``, ``PASSWD``, ``CREDENTIAL``
  or ``CREDENTIALS`` (``NPM_TOKEN``, ``DBPASSWORD``), or in ``KEY`` or ``PAT`` after a separator
  (``OPENAI_API_KEY``, ``AZURE_DEVOPS_PAT``; also ``APIKEY``), but not ``MONKEY`` or ``XDG_..._PATH``;
- connection strings, by name (``..._CONNECTION_STRING``, ``..._DSN``, ``DATABASE_URL``), whole;
- in any variable, the password of a URL (``https://user:PASSWORD@host``) and the key fields of
  a connection string (``Password=``, ``Pwd=``, ``AccountKey=``, ``SharedAccessKey=``, ...).

Values shorter than the redactor's minimum are not secrets it can scrub safely (see
``MIN_SECRET_LENGTH``), and values of one or two distinct characters (``********``) are masks,
not secrets. This module is a leaf and decides only; the redactor registers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from urllib.parse import unquote

__all__ = ["GITHUB_TOKEN_VARIABLES", "is_secret_header", "is_secret_name", "secret_header_values", "secret_values"]

GITHUB_TOKEN_VARIABLES = ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN")
"""The variables a GitHub token is read from, in the order the runtime reads them."""

# A word that makes any name ending in it a secret, glued or not (GH_TOKEN, GITLABTOKEN).
_ANY_ENDING = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "CREDENTIALS")
# Short words that end many innocent names (MONKEY, TURNKEY): a secret only after a separator.
_SEPARATED_ENDING = re.compile(r"(?:^|[_.\-])(?:KEY|PAT)$|APIKEY$|ACCESSKEY$|SECRETKEY$")
_CONNECTION_NAME = re.compile(r"CONNECTION_?STRING|CONN_?STR|(?:^|_)DSN$|(?:^|_)DATABASE_URL$")
# The password of a URL's userinfo: scheme://user:password@host
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]*:([^\s/@]+)@")
# A key field of a connection string: ...;AccountKey=abc;...
_CONNECTION_FIELD = re.compile(
    r"(?:^|[;\s])(?:Password|Pwd|AccountKey|SharedAccessKey|SharedAccessSignature|Secret|Token|ApiKey|AccessKey)"
    r"\s*=\s*([^;\s]+)",
    re.IGNORECASE,
)


def is_secret_name(name: str) -> bool:
    """Whether a variable's name marks its value as a secret (case-insensitive)."""
    upper = name.upper()
    if upper in GITHUB_TOKEN_VARIABLES or upper.endswith(_ANY_ENDING):
        return True
    return bool(_SEPARATED_ENDING.search(upper) or _CONNECTION_NAME.search(upper))


_SECRET_HEADER = re.compile(r"AUTHORIZATION|COOKIE|API[_-]?KEY|TOKEN|SECRET|PASSWORD|(?:^|[_-])KEY$", re.IGNORECASE)


def is_secret_header(name: str) -> bool:
    """Whether an HTTP header's name marks its value as a secret (``Authorization``, ``X-Api-Key``, ...)."""
    return bool(_SECRET_HEADER.search(name))


def secret_header_values(headers: Mapping[str, str], *, minimum: int = 8) -> Iterator[tuple[str, str]]:
    """(header name, secret value) pairs: the whole value and, for ``Bearer xyz``, the credential alone."""
    for name, value in headers.items():
        if not isinstance(name, str) or not isinstance(value, str) or not is_secret_header(name):
            continue
        for form in {value, value.partition(" ")[2].strip()}:
            if _worth_registering(form, minimum):
                yield name, form


def _worth_registering(value: str, minimum: int) -> bool:
    return len(value) >= minimum and len(set(value)) > 2


def secret_values(environ: Mapping[str, str], *, minimum: int = 8) -> Iterator[tuple[str, str]]:
    """(variable name, secret value) pairs of an environment, each value at least ``minimum`` long.

    A variable may give several values: its whole value (by name) and the passwords or key fields
    found inside it (by form), each named after the variable.
    """
    for name, value in environ.items():
        if not isinstance(name, str) or not isinstance(value, str) or len(value) < minimum:
            continue
        if is_secret_name(name) and _worth_registering(value, minimum):
            yield name, value
        if "=" not in value and "@" not in value:  # neither a connection string nor a URL with a password
            continue
        for pattern in (_URL_PASSWORD, _CONNECTION_FIELD):
            for match in pattern.finditer(value):
                secret = match.group(1)
                for form in {secret, unquote(secret)}:
                    if _worth_registering(form, minimum):
                        yield name, form
