"""The issue-comment endpoints of one repository on httpx: list every page, create, update.

A pull request's conversation is an issue's, so its comments are issue comments. Listing follows
the ``Link`` header's ``next`` until the last page (100 comments a page). A rate-limited answer
(403 or 429 that says so) is waited out as GitHub asks (``retry-after``, else until
``x-ratelimit-reset``, else a minute, doubling) and retried at most ``max_retries`` times within
``max_wait_s`` in all; a rate-limited request was not carried out, so retrying a write is safe.
Nothing else is retried: a 5xx after a write may have written. The token is registered with the
redactor before it is first sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from copilot_eval.github.errors import (
    WRITE_PERMISSION,
    AuthenticationError,
    GitHubError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    TransportError,
    ValidationError,
    github_message,
    rate_limit_wait,
)
from copilot_eval.redaction import redact, register_secret

DEFAULT_API_URL = "https://api.github.com"
"""GitHub's REST API (GitHub Enterprise Server names its own in GITHUB_API_URL)."""

API_VERSION = "2022-11-28"
"""The REST API version asked for (``X-GitHub-Api-Version``)."""

MAX_PAGES = 100
"""Pages of 100 comments read at most when looking for one comment (10,000 comments)."""

log = logging.getLogger("copilot_eval.github")
Sleep = Callable[[float], Awaitable[None]]


class GitHubComments:
    """Comments on the issues and pull requests of ``repo`` (``OWNER/NAME``); ``async with`` closes the connections."""

    def __init__(
        self,
        *,
        repo: str,
        token: str,
        token_name: str = "GITHUB_TOKEN",
        api_url: str = DEFAULT_API_URL,
        max_retries: int = 3,
        max_wait_s: float = 300.0,
        timeout_s: float = 30.0,
        sleep: Sleep | None = None,
    ) -> None:
        register_secret(token, token_name)
        self.repo, self.token_name = repo, token_name
        self.api_url = api_url.rstrip("/")
        self.max_retries, self.max_wait_s = max_retries, max_wait_s
        self._sleep = sleep or asyncio.sleep
        self.waited_s = 0.0  # time spent waiting out rate limits, in all
        self._http = httpx.AsyncClient(
            timeout=timeout_s,
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": API_VERSION,
                "User-Agent": "copilot-eval",
            },
        )

    async def __aenter__(self) -> GitHubComments:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    # -- operations ----------------------------------------------------------------------------
    async def token_login(self) -> str | None:
        """The login of the account the token acts as (``GET /user``); None when GitHub will not say.

        A GitHub App's installation token (a workflow's ``GITHUB_TOKEN``) gets 403 for ``/user``.
        """
        try:
            response = await self._send("GET", f"{self.api_url}/user", what="the token's own account")
        except PermissionDeniedError:
            return None
        body = response.json()
        login = body.get("login") if isinstance(body, dict) else None
        if not isinstance(login, str) or not login:
            raise ServerError("GET /user answered without a login")
        return login

    async def list_comments(self, number: int) -> list[dict[str, Any]]:
        """Every comment on issue or pull request ``number``, oldest first, over as many pages as there are."""
        url: str | None = f"{self.api_url}/repos/{self.repo}/issues/{number}/comments?per_page=100"
        found: list[dict[str, Any]] = []
        for _ in range(MAX_PAGES):
            if url is None:
                return found
            response = await self._send("GET", url, what=f"pull request #{number}")
            page = response.json()
            if not isinstance(page, list):
                raise ServerError(f"listing the comments of #{number} gave {type(page).__name__}, not a list")
            found.extend(item for item in page if isinstance(item, dict))
            url = response.links.get("next", {}).get("url")
        log.warning("stopped after %d pages of comments on #%d", MAX_PAGES, number)
        return found

    async def create_comment(self, number: int, body: str) -> dict[str, Any]:
        """Post a new comment on issue or pull request ``number``; GitHub's comment object."""
        url = f"{self.api_url}/repos/{self.repo}/issues/{number}/comments"
        return self._comment(await self._send("POST", url, json={"body": body}, what=f"pull request #{number}"))

    async def update_comment(self, comment_id: int, body: str) -> dict[str, Any]:
        """Replace the body of comment ``comment_id``; GitHub's comment object."""
        url = f"{self.api_url}/repos/{self.repo}/issues/comments/{comment_id}"
        return self._comment(await self._send("PATCH", url, json={"body": body}, what=f"comment {comment_id}"))

    # -- the boundary --------------------------------------------------------------------------
    @staticmethod
    def _comment(response: httpx.Response) -> dict[str, Any]:
        body = response.json()
        if not isinstance(body, dict) or "id" not in body:
            raise ServerError(f"GitHub answered {response.status_code} without a comment object")
        return body

    async def _send(self, method: str, url: str, *, what: str, json: Any = None) -> httpx.Response:
        retries = 0
        while True:
            try:
                response = await self._http.request(method, url, json=json)
            except httpx.HTTPError as exc:
                raise TransportError(
                    redact(f"{method} {url}: {type(exc).__name__}: {exc}"),
                    hint=f"check that {self.api_url} is reachable (--api-url, GITHUB_API_URL)",
                ) from None
            if response.is_success:
                return response
            try:
                body: Any = response.json()
            except ValueError:
                body = response.text
            message = redact(github_message(body)) or response.reason_phrase
            wait = rate_limit_wait(response.status_code, response.headers, message)
            if wait is None:
                raise self._error(response.status_code, message, method=method, what=what)
            if retries >= self.max_retries or self.waited_s + wait > self.max_wait_s:
                raise RateLimitedError(
                    message,
                    status=response.status_code,
                    hint=f"GitHub asked to wait {wait:.0f} s; gave up after {retries} retries and "
                    f"{self.waited_s:.0f} s of waiting (at most {self.max_retries} retries, {self.max_wait_s:.0f} s)",
                )
            if response.headers.get("retry-after") is None and response.headers.get("x-ratelimit-remaining") != "0":
                wait *= 2**retries  # no header to go by: wait longer each time, as GitHub asks
                wait = min(wait, self.max_wait_s - self.waited_s)
            log.warning("GitHub rate limit (%s): waiting %.0f s before retrying %s", message, wait, method)
            retries += 1
            self.waited_s += wait
            await self._sleep(wait)

    def _error(self, status: int, message: str, *, method: str, what: str) -> GitHubError:
        if status == 401:
            return AuthenticationError(
                message,
                status=status,
                hint=f"GitHub does not accept the token in {self.token_name}: set a valid token there "
                "(in a workflow, `GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` in the step's env)",
            )
        if status == 403:
            return PermissionDeniedError(
                message,
                status=status,
                hint=f"the token in {self.token_name} may not write comments on {self.repo}: give the job "
                f"`permissions: {WRITE_PERMISSION}` (a personal token needs the repository's Pull requests or "
                "Issues write permission); a pull request from a fork gets a read-only token",
            )
        if status == 404:
            return NotFoundError(
                message,
                status=status,
                hint=f"{what} of repository {self.repo} was not found: check --repo and --pr (a private repository "
                f"answers 404 to a token that cannot see it, so check the token in {self.token_name} too)",
            )
        if status == 422:
            return ValidationError(message, status=status, hint=f"GitHub refused the body of {method} for {what}")
        return ServerError(message, status=status, hint=f"GitHub failed {method} for {what}; try again later")


__all__ = ["API_VERSION", "DEFAULT_API_URL", "MAX_PAGES", "GitHubComments"]
