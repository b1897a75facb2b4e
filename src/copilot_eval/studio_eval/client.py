"""The evaluation API client: six operations of one agent on httpx, with backoff and honest errors.

Reads (list and get) are retried on HTTP 429 and 503, after the server's ``Retry-After`` when it
sends one (exponential otherwise), within ``max_wait_s`` and the caller's deadline. The run request
is never retried: a 429 there is the agent's daily run limit, which a retry cannot lift, and a
retried start after a 5xx could start a second run. The token is asked for once, registered with
the redactor under ``token_name``, and asked for again once after a 401.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote, unquote

import httpx

from copilot_eval.redaction import redact, register_secret
from copilot_eval.studio_eval.errors import (
    WRITE_PERMISSION,
    Operation,
    StudioEvalError,
    TransportError,
    UnexpectedResponseError,
    error_for,
    retry_after_seconds,
)
from copilot_eval.studio_eval.shapes import (
    API_VERSION,
    DEFAULT_API_URL,
    StudioRun,
    StudioRunStatus,
    StudioSnapshot,
    StudioTestSet,
    run_request_body,
)
from copilot_eval.targets.http import error_of

TokenProvider = Callable[[], str | Awaitable[str]]
RETRIED_STATUSES = (429, 503)
log = logging.getLogger("copilot_eval.studio_eval")


def _file_name(disposition: str | None) -> str | None:
    """The file name of a ``Content-Disposition`` header (``filename*`` preferred), without any folder."""
    if not disposition:
        return None
    star = re.search(r"filename\*\s*=\s*(?:[\w-]+'[\w-]*')?\"?([^\";]+)\"?", disposition, re.IGNORECASE)
    plain = re.search(r"filename\s*=\s*\"?([^\";]+)\"?", disposition, re.IGNORECASE)
    found = unquote(star.group(1)) if star else plain.group(1) if plain else None
    if not found:
        return None
    name = found.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return name if name not in ("", ".", "..") else None


class StudioEvalClient:
    """The evaluation API of one agent (environment id and bot id); ``async with`` closes its connections."""

    def __init__(
        self,
        *,
        environment_id: str,
        bot_id: str,
        token: TokenProvider,
        token_name: str = "POWER_PLATFORM_TOKEN",
        api_url: str = DEFAULT_API_URL,
        http: httpx.AsyncClient | None = None,
        max_retries: int = 4,
        max_wait_s: float = 120.0,
        request_timeout_s: float = 60.0,
    ) -> None:
        self.environment_id, self.bot_id = environment_id, bot_id
        self.api_url = api_url.rstrip("/")
        self._token_provider, self._token_name = token, token_name
        self._token: str | None = None
        self._own_http = http is None
        self._http = http or httpx.AsyncClient(timeout=request_timeout_s, follow_redirects=False)
        self.max_retries, self.max_wait_s = max_retries, max_wait_s
        self.exchanges: list[dict[str, Any]] = []

    async def __aenter__(self) -> StudioEvalClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP connections (only those this client opened)."""
        if self._own_http:
            await self._http.aclose()

    @property
    def base_url(self) -> str:
        """``<api>/copilotstudio/environments/<env>/bots/<bot>/api/makerevaluation``."""
        env, bot = quote(self.environment_id, safe=""), quote(self.bot_id, safe="")
        return f"{self.api_url}/copilotstudio/environments/{env}/bots/{bot}/api/makerevaluation"

    def _operation(self, name: str, method: str, path: str, **ids: str) -> Operation:
        every = {
            "environment": self.environment_id,
            "bot": self.bot_id,
            **{k.replace("_", " "): v for k, v in ids.items()},
        }
        permission = WRITE_PERMISSION if method == "POST" else Operation.permission
        return Operation(name=name, method=method, path=path, ids=every, permission=permission)

    async def _bearer(self, *, fresh: bool = False) -> str:
        if self._token is None or fresh:
            value = self._token_provider()
            if inspect.isawaitable(value):
                value = await value
            register_secret(value, self._token_name)  # before it is used anywhere
            self._token = value
        return self._token

    def _wait(self, response: httpx.Response, attempt: int) -> float:
        told = retry_after_seconds(response.headers.get("retry-after"))
        return told if told is not None else min(2.0**attempt, self.max_wait_s)

    async def _request(
        self,
        operation: Operation,
        *,
        body: Any = None,
        retry: bool = True,
        deadline: float | None = None,
        published: bool = False,
    ) -> httpx.Response:
        url = f"{self.base_url}{operation.path}"
        refreshed = False
        attempt = 0
        while True:
            token = await self._bearer()
            headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, application/zip"}
            started = time.monotonic()
            try:
                response = await self._http.request(
                    operation.method, url, params={"api-version": API_VERSION}, json=body, headers=headers
                )
            except httpx.HTTPError as exc:
                self._note(operation, None, started)
                raise TransportError(
                    redact(f"{type(exc).__name__}: {exc}"),
                    operation=operation,
                    hint=f"the Power Platform API at {self.api_url} did not answer: check the network or --api-url",
                ) from None
            self._note(operation, response.status_code, started)
            if response.status_code < 400:
                return response
            if response.status_code == 401 and not refreshed:
                refreshed = True  # the token may have expired while a run was polled: ask for a new one once
                await self._bearer(fresh=True)
                continue
            wait = self._wait(response, attempt)
            room = deadline is None or time.monotonic() + wait < deadline
            retryable = retry and response.status_code in RETRIED_STATUSES and attempt < self.max_retries
            if retryable and wait <= self.max_wait_s and room:
                log.info("%s: HTTP %s, retrying in %.1f s", operation.describe(), response.status_code, wait)
                attempt += 1
                await asyncio.sleep(wait)
                continue
            code, message = error_of(response, limit=500, bare=True)
            raise error_for(
                response.status_code,
                code,
                redact(message),
                operation=operation,
                retry_after=response.headers.get("retry-after"),
                published=published,
            )

    def _note(self, operation: Operation, status: int | None, started: float) -> None:
        self.exchanges.append(
            {
                "method": operation.method,
                "path": operation.path,
                "status": status,
                "durationMs": round((time.monotonic() - started) * 1000, 1),
            }
        )

    @staticmethod
    def _json(response: httpx.Response, operation: Operation) -> Any:
        try:
            return response.json()
        except ValueError:
            raise UnexpectedResponseError(
                f"the body is not JSON ({response.headers.get('content-type')})", operation=operation
            ) from None

    def _parse(self, response: httpx.Response, operation: Operation, reader: Callable[[Any], Any]) -> Any:
        try:
            return reader(self._json(response, operation))
        except (ValueError, TypeError, KeyError) as exc:
            raise UnexpectedResponseError(
                f"the body does not have the documented shape: {exc}", operation=operation
            ) from None

    def _values(self, response: httpx.Response, operation: Operation, reader: Callable[[Any], Any]) -> list[Any]:
        body = self._json(response, operation)
        values = body.get("value") if isinstance(body, dict) else None
        if not isinstance(values, list):
            raise UnexpectedResponseError("the body has no 'value' list", operation=operation)
        return [self._parse_item(item, operation, reader) for item in values]

    @staticmethod
    def _parse_item(item: Any, operation: Operation, reader: Callable[[Any], Any]) -> Any:
        try:
            return reader(item)
        except (ValueError, TypeError, KeyError) as exc:
            raise UnexpectedResponseError(
                f"an item does not have the documented shape: {exc}", operation=operation
            ) from None

    # -- the six operations --------------------------------------------------------------------
    async def list_test_sets(self, *, deadline: float | None = None) -> list[StudioTestSet]:
        """``GET /testsets``: the agent's test sets (metadata only)."""
        operation = self._operation("list test sets", "GET", "/testsets")
        return self._values(await self._request(operation, deadline=deadline), operation, StudioTestSet.from_json)

    async def get_test_set(self, test_set_id: str, *, deadline: float | None = None) -> StudioTestSet:
        """``GET /testsets/{id}``: one test set's metadata."""
        operation = self._operation(
            "get a test set", "GET", f"/testsets/{quote(test_set_id, safe='')}", test_set=test_set_id
        )
        return self._parse(await self._request(operation, deadline=deadline), operation, StudioTestSet.from_json)

    async def run_test_set(
        self, test_set_id: str, *, run_name: str, published: bool = False, connection_id: str | None = None
    ) -> StudioRunStatus:
        """``POST /testsets/{id}/run``: start one run (never retried; see the module's docstring)."""
        operation = self._operation(
            "start a run", "POST", f"/testsets/{quote(test_set_id, safe='')}/run", test_set=test_set_id
        )
        body = run_request_body(run_name=run_name, published=published, connection_id=connection_id)
        response = await self._request(operation, body=body, retry=False, published=published)
        return self._parse(response, operation, StudioRunStatus.from_json)

    async def list_runs(self, *, deadline: float | None = None) -> list[StudioRun]:
        """``GET /testruns``: the agent's runs the platform still keeps (89 days)."""
        operation = self._operation("list runs", "GET", "/testruns")
        return self._values(await self._request(operation, deadline=deadline), operation, StudioRun.from_json)

    async def get_run(self, run_id: str, *, deadline: float | None = None) -> StudioRun:
        """``GET /testruns/{id}``: one run, with its case results once they exist."""
        operation = self._operation("get a run", "GET", f"/testruns/{quote(run_id, safe='')}", run=run_id)
        return self._parse(await self._request(operation, deadline=deadline), operation, StudioRun.from_json)

    async def download_snapshot(self, run_id: str, *, deadline: float | None = None) -> StudioSnapshot:
        """``GET /testruns/{id}/snapshot``: the ZIP of the agent as it was tested."""
        operation = self._operation(
            "download the tested agent", "GET", f"/testruns/{quote(run_id, safe='')}/snapshot", run=run_id
        )
        response = await self._request(operation, deadline=deadline)
        return StudioSnapshot(
            content=response.content,
            file_name=_file_name(response.headers.get("content-disposition")),
            content_type=response.headers.get("content-type"),
        )


__all__ = ["RETRIED_STATUSES", "StudioEvalClient", "StudioEvalError", "TokenProvider"]
