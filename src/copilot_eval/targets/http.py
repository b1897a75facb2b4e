"""The one place the target clients make HTTP requests: record, scrub, retry 429, translate errors.

Every request is recorded as an ``HttpExchange`` whose URL has credential query values removed and
whose texts have every known secret replaced, so the evidence can be shared. Errors of httpx and
HTTP error statuses become ``TargetHttpError`` here, at the boundary, carrying status and code.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx

from copilot_eval.redaction import register_secret
from copilot_eval.retry_after import retry_after_seconds
from copilot_eval.targets.evidence import HttpExchange

_SECRET_PARAMS = {"t", "token", "access_token", "code", "secret", "key", "sig"}
REDACTED = "[redacted]"
MAX_RETRY_AFTER_S = 30.0


class TargetHttpError(Exception):
    """A failed request to a target: HTTP status (``None`` when no response), platform code, message."""

    def __init__(self, status: int | None, code: str | None, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def describe(self) -> str:
        """One line for the evidence: ``HTTP 502 BotRejectedActivity: message``."""
        head = f"HTTP {self.status}" if self.status is not None else "no HTTP response"
        return f"{head}{' ' + self.code if self.code else ''}: {self.message}"


class Secrets:
    """Values that must never be written anywhere (tokens, secrets); ``scrub`` removes them from text."""

    def __init__(self) -> None:
        self._values: set[str] = set()

    def add(self, value: str | None, name: str = "COPILOT_STUDIO_TOKEN") -> None:
        """Remember a secret value (short values are ignored: they would redact ordinary words).

        It is also registered with the process-wide redactor under ``name``, so that logs, reports
        and any other output scrub it too, not only this client's own evidence.
        """
        if value and len(value) >= 8:
            self._values.add(value)
            register_secret(value, name)

    def scrub(self, value: Any) -> Any:
        """``value`` (text, or JSON-like data) with every known secret replaced."""
        if isinstance(value, str):
            for secret in self._values:
                value = value.replace(secret, REDACTED)
            return value
        if isinstance(value, list):
            return [self.scrub(item) for item in value]
        if isinstance(value, dict):
            return {key: self.scrub(item) for key, item in value.items()}
        return value


def public_url(url: str) -> str:
    """``url`` without credential query values (``?t=...`` stream tokens and the like)."""
    parts = urlsplit(url)
    query = [
        (k, REDACTED if k.lower() in _SECRET_PARAMS else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, urlencode(query, safe="[]"), ""))


def error_of(response: httpx.Response, *, limit: int = 300, bare: bool = False) -> tuple[str | None, str]:
    """The ``ErrorResponse`` code and message of an error response (message falls back to the body).

    ``limit`` caps the message's length; ``bare`` also reads a ``{"code", "message"}`` body that has no
    ``error`` wrapper (Copilot Studio's evaluation API answers some errors so).
    """
    try:
        body = response.json()
    except ValueError:
        return None, (response.text or response.reason_phrase or "")[:limit]
    error = body.get("error") if isinstance(body, dict) else None
    if bare and not isinstance(error, dict) and isinstance(body, dict) and isinstance(body.get("message"), str):
        error = body
    if isinstance(error, dict):
        return (str(error["code"]) if error.get("code") else None), str(error.get("message") or "")[:limit]
    return None, str(body)[:limit]


def _retry_after(response: httpx.Response) -> float:
    told = retry_after_seconds(response.headers.get("retry-after"))
    return min(1.0 if told is None else told, MAX_RETRY_AFTER_S)  # a second when the answer names no wait


class Exchanges:
    """Sends requests for one conversation and keeps the scrubbed record of each."""

    def __init__(self, http: httpx.AsyncClient, secrets: Secrets, *, max_retries: int = 2) -> None:
        self.http, self.secrets, self.max_retries = http, secrets, max_retries
        self.records: list[HttpExchange] = []

    # Its parameter list is alike in shape only to otel/exporter.py's export_case; unrelated.
    def record(
        self,
        method: str,
        url: str,
        started: float,
        status: int | None,
        code: str | None = None,
        message: str | None = None,
    ) -> None:
        self.records.append(
            HttpExchange(
                method=method,
                url=self.secrets.scrub(public_url(url)),
                status=status,
                duration_ms=round((time.monotonic() - started) * 1000, 1),
                error_code=code,
                error_message=self.secrets.scrub(message) if message else None,
            )
        )

    async def send(
        self,
        method: str,
        url: str,
        *,
        bearer: str | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
        deadline: float | None = None,
    ) -> httpx.Response:
        """One request (429 retried after Retry-After while time allows); error statuses raise."""
        all_headers = dict(headers or {})
        if bearer:
            all_headers["Authorization"] = f"Bearer {bearer}"
        for attempt in range(self.max_retries + 1):
            started = time.monotonic()
            try:
                response = await self.http.request(method, url, json=json, headers=all_headers)
            except httpx.HTTPError as exc:
                message = f"{type(exc).__name__}: {exc}"
                self.record(method, url, started, None, message=message)
                raise TargetHttpError(None, None, self.secrets.scrub(message)) from None
            if response.status_code < 400:
                self.record(method, url, started, response.status_code)
                return response
            code, message = error_of(response)
            self.record(method, url, started, response.status_code, code, message)
            wait = _retry_after(response)
            room = deadline is None or time.monotonic() + wait < deadline
            if response.status_code == 429 and attempt < self.max_retries and room:
                await asyncio.sleep(wait)
                continue
            raise TargetHttpError(response.status_code, code, self.secrets.scrub(message))
        raise AssertionError("unreachable")  # pragma: no cover

    def stream(self, url: str, *, bearer: str, json: Any) -> Any:
        """An SSE POST as an httpx stream context (statuses are checked by the caller)."""
        headers = {
            "Authorization": f"Bearer {bearer}",
            "Accept": "text/event-stream",
            "Content-Type": "application/json",
        }
        return self.http.stream("POST", url, json=json, headers=headers)


__all__ = ["REDACTED", "Exchanges", "Secrets", "TargetHttpError", "error_of", "public_url"]
