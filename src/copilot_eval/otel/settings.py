"""Where a run's OpenTelemetry export goes: ``--otel-endpoint`` or the standard OTLP variables.

An explicit endpoint wins; otherwise ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (used as given) or
``OTEL_EXPORTER_OTLP_ENDPOINT`` (``/v1/traces`` appended, as every OpenTelemetry SDK does) switches
the export on. ``OTEL_EXPORTER_OTLP_HEADERS`` (``key=value,key2=value2``, values URL-encoded) and
``OTEL_EXPORTER_OTLP_TRACES_HEADERS`` add headers, whose values are registered with the redactor
(they usually hold an API key). ``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none`` switch
the export off, whatever else is set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from copilot_eval.redaction import register_secret

__all__ = ["DEFAULT_FLUSH_S", "OtelSettings", "OtelSettingsError", "resolve_otel_settings", "traces_url"]

DEFAULT_FLUSH_S = 5.0
"""How long the end of a run waits, at most, for the collector to take what is left."""
TRACES_PATH = "/v1/traces"


class OtelSettingsError(ValueError):
    """An endpoint or header setting that cannot be used; the message names the option or variable."""


@dataclass(frozen=True)
class OtelSettings:
    """Where and how to export: the OTLP/HTTP traces URL, headers, and whether message content goes too."""

    endpoint: str
    headers: Mapping[str, str] = field(default_factory=dict)
    capture_content: bool = False
    flush_s: float = DEFAULT_FLUSH_S
    source: str = "--otel-endpoint"  # which option or variable named the endpoint, for messages


def traces_url(base: str, *, named_by: str) -> str:
    """The OTLP/HTTP traces URL of a collector's base URL (``/v1/traces`` appended unless present)."""
    parts = urlsplit(base.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise OtelSettingsError(f"{named_by}: {base!r} is not an http(s) URL (e.g. http://127.0.0.1:6006)")
    url = base.strip().rstrip("/")
    return url if url.endswith(TRACES_PATH) else url + TRACES_PATH


def _headers(text: str, *, named_by: str) -> dict[str, str]:
    headers: dict[str, str] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise OtelSettingsError(f"{named_by}: {item.split('=')[0]!r}... is not key=value")
        headers[unquote(key.strip())] = unquote(value.strip())
    return headers


def _off(environ: Mapping[str, str]) -> bool:
    disabled = environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true"
    return disabled or environ.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none"


def resolve_otel_settings(
    endpoint: str | None = None,
    *,
    capture_content: bool = False,
    option: str = "--otel-endpoint",
    environ: Mapping[str, str] | None = None,
) -> OtelSettings | None:
    """The export settings, or ``None`` when nothing asks for an export (or the standard switch is off).

    ``option`` is the caller's own name for the endpoint option (``--copilot-otel-endpoint`` in pytest).
    """
    env = os.environ if environ is None else environ
    if _off(env):
        return None
    if endpoint:
        url, source = traces_url(endpoint, named_by=option), option
    elif env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        source = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
        url = env[source].strip()
        traces_url(url, named_by=source)  # only checked: this variable is the full URL already
    elif env.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        source = "OTEL_EXPORTER_OTLP_ENDPOINT"
        url = traces_url(env[source], named_by=source)
    else:
        return None
    headers: dict[str, str] = {}
    for name in ("OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"):
        if env.get(name):
            headers.update(_headers(env[name], named_by=name))
    for key, value in headers.items():
        register_secret(value, f"{key} header")  # an API key, most of the time
    return OtelSettings(endpoint=url, headers=headers, capture_content=capture_content, source=source)
