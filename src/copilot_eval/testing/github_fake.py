"""A faithful local copy of GitHub's issue-comment endpoints (REST API version 2022-11-28).

The three operations a pull-request comment needs, with the documented bodies and headers:
``GET /repos/{owner}/{repo}/issues/{n}/comments`` (ascending ids, ``per_page`` up to 100, default
30, ``page``, and a ``Link`` header with ``next``/``last``/``first``/``prev``),
``POST`` to the same path (201 with a ``Location`` header) and
``PATCH /repos/{owner}/{repo}/issues/comments/{id}``, and ``GET /user`` (the token's own account:
a user's token reads it, a GitHub App's installation token such as a workflow's ``GITHUB_TOKEN``
gets 403 "Resource not accessible by integration"). And their failures: 401 without a token or
with an unknown one, 403 for a token that may read but not write (the message GitHub gives a
workflow's ``GITHUB_TOKEN`` without ``pull-requests: write``), 404 for another repository, an
unknown pull request or comment, 422 for a body over 65,536 characters, and rate limits: the
secondary limit (403 or 429 with ``Retry-After``) and the primary one (``x-ratelimit-remaining: 0``
with ``x-ratelimit-reset``). Nothing depends on the clock but the reset time it reports.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from copilot_eval.testing.fake_agent import FakeEndpoint

# Starlette is imported when a fake builds its app or answers: `import copilot_eval.testing` (the scripts, the
# fakes' classes) must not load it.

BODY_LIMIT = 65536
"""The longest comment body GitHub accepts, in characters."""

DEFAULT_PER_PAGE, MAX_PER_PAGE = 30, 100
_DOCS = "https://docs.github.com/rest/issues/comments"
_HOURLY_LIMIT = 5000


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _json(body: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> Any:
    """A JSON answer with ``status`` and ``headers``."""
    from starlette.responses import JSONResponse

    return JSONResponse(body, status_code=status, headers=headers)


async def _elsewhere(request: Any) -> Any:
    """Any other path: GitHub's plain 404."""
    return _json(
        {"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"}, status=404
    )


async def _read_body(request: Any) -> Any:
    """A request's JSON body, its text when it is not JSON, None when it has none."""
    raw = await request.body()
    if not raw:
        return None
    try:
        return await request.json()
    except ValueError:
        return raw.decode("utf-8", "replace")


@dataclass(frozen=True)
class RateLimitFault:
    """One rate-limited answer: its status (403 or 429), and the headers that say when to come back."""

    status: int = 403
    retry_after_s: int | None = 1  # secondary limit: the Retry-After header
    reset_in_s: int | None = None  # primary limit: x-ratelimit-remaining 0 and x-ratelimit-reset this far ahead


@dataclass
class FakeUser:
    """The account a token acts as (a workflow's token comments as ``github-actions[bot]``)."""

    login: str = "github-actions[bot]"
    id: int = 41898282
    type: str = "Bot"

    def body(self, web: str, api: str) -> dict[str, Any]:
        """The documented ``simple-user`` object."""
        user = f"{api}/users/{self.login}"
        return {
            "login": self.login,
            "id": self.id,
            "node_id": f"MDM6Qm90{self.id}",
            "avatar_url": f"https://avatars.example.invalid/u/{self.id}?v=4",
            "gravatar_id": "",
            "url": user,
            "html_url": f"{web}/{self.login}",
            "followers_url": f"{user}/followers",
            "following_url": f"{user}/following{{/other_user}}",
            "gists_url": f"{user}/gists{{/gist_id}}",
            "starred_url": f"{user}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{user}/subscriptions",
            "organizations_url": f"{user}/orgs",
            "repos_url": f"{user}/repos",
            "events_url": f"{user}/events{{/privacy}}",
            "received_events_url": f"{user}/received_events",
            "type": self.type,
            "site_admin": False,
        }


@dataclass
class FakeComment:
    """A comment the fake holds: on which pull request, by whom, and its body."""

    id: int
    issue: int
    body: str
    user: FakeUser
    created_at: str = field(default_factory=_now)
    updated_at: str = field(default_factory=_now)


class FakeGitHubComments(FakeEndpoint):
    """An ASGI app: the issue-comment API of one repository (``repo``, ``OWNER/NAME``) and its ``pulls``.

    ``token`` may read and write; ``read_only_token`` may list but not write (403); any other
    token is refused (401). ``seed`` adds someone else's comment; ``rate_limit`` makes the next
    requests answer a rate limit. ``requests`` records (method, path, query, body) of each request.
    """

    def __init__(
        self,
        *,
        repo: str = "octo-org/bike-agent",
        pulls: tuple[int, ...] = (7,),
        token: str = "ghs_fakeWriteToken0123456789abcdef",
        read_only_token: str | None = "ghs_fakeReadOnlyToken0123456789ab",
        user: FakeUser | None = None,
    ) -> None:
        self.repo, self.pulls = repo, set(pulls)
        self.token, self.read_only_token = token, read_only_token
        self.user = user or FakeUser()
        self.comments: list[FakeComment] = []
        self.requests: list[tuple[str, str, dict[str, str], Any]] = []
        self._faults: list[RateLimitFault] = []
        self._fault_counts: dict[int, int] = {}
        self._next_id = 1_000_001
        self._used = 0
        self.url = ""
        self._app = self._build()

    # -- controls ------------------------------------------------------------------------------
    @property
    def api_url(self) -> str:
        """What ``--api-url`` points at (the fake's origin, as ``GITHUB_API_URL`` names GitHub's)."""
        return self.url

    def seed(
        self, issue: int, body: str, *, login: str = "octocat", count: int = 1, user_type: str = "User"
    ) -> list[FakeComment]:
        """Add ``count`` comments by someone else (``user_type`` ``User`` or ``Bot``) to pull request ``issue``."""
        author = FakeUser(login=login, id=583231, type=user_type)
        return [self._add(issue, body if count == 1 else f"{body} {n + 1}", author) for n in range(count)]

    def rate_limit(self, times: int = 1, **fault: Any) -> None:
        """The next ``times`` requests answer a rate limit (see :class:`RateLimitFault` for the options)."""
        self._faults.extend([RateLimitFault(**fault)] * times)

    def comments_on(self, issue: int) -> list[FakeComment]:
        """The comments on one pull request, oldest first."""
        return [comment for comment in self.comments if comment.issue == issue]

    def _add(self, issue: int, body: str, user: FakeUser) -> FakeComment:
        comment = FakeComment(self._next_id, issue, body, user)
        self._next_id += 1
        self.comments.append(comment)
        return comment

    # -- bodies --------------------------------------------------------------------------------
    def _web(self) -> str:
        return f"{self.url}/web"

    def comment_body(self, comment: FakeComment) -> dict[str, Any]:
        """The documented ``issue-comment`` object."""
        api = self.url
        return {
            "id": comment.id,
            "node_id": f"IC_kwDOfake{comment.id}",
            "url": f"{api}/repos/{self.repo}/issues/comments/{comment.id}",
            "html_url": f"{self._web()}/{self.repo}/pull/{comment.issue}#issuecomment-{comment.id}",
            "body": comment.body,
            "user": comment.user.body(self._web(), api),
            "created_at": comment.created_at,
            "updated_at": comment.updated_at,
            "issue_url": f"{api}/repos/{self.repo}/issues/{comment.issue}",
            "author_association": "NONE" if comment.user.type == "Bot" else "MEMBER",
            "performed_via_github_app": None,
            "reactions": {
                "url": f"{api}/repos/{self.repo}/issues/comments/{comment.id}/reactions",
                "total_count": 0,
                **dict.fromkeys(("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"), 0),
            },
        }

    def _headers(self, remaining: int | None = None) -> dict[str, str]:
        left = max(0, _HOURLY_LIMIT - self._used) if remaining is None else remaining
        return {
            "x-ratelimit-limit": str(_HOURLY_LIMIT),
            "x-ratelimit-remaining": str(left),
            "x-ratelimit-used": str(min(self._used, _HOURLY_LIMIT)),
            "x-ratelimit-reset": str(int(time.time()) + 3600),
            "x-ratelimit-resource": "core",
            "x-github-api-version-selected": "2022-11-28",
        }

    def _error(
        self, status: int, message: str, anchor: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> Any:
        body = {"message": message, **extra, "documentation_url": f"{_DOCS}#{anchor}", "status": str(status)}
        return _json(body, status=status, headers={**self._headers(), **(headers or {})})

    def _rate_limited(self, fault: RateLimitFault) -> Any:
        headers: dict[str, str] = {}
        if fault.reset_in_s is not None:
            headers = self._headers(remaining=0)
            headers["x-ratelimit-reset"] = str(int(time.time()) + fault.reset_in_s)
            message = f"API rate limit exceeded for user ID {self.user.id}."
        else:
            message = (
                "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you "
                "reach out to GitHub Support for help, please include the request ID FAKE:0000:0000000:0000000:00000000."
            )
        if fault.retry_after_s is not None:
            headers["retry-after"] = str(fault.retry_after_s)
        return self._error(fault.status, message, "rate-limits", headers=headers)

    def _page_links(self, path: str, query: dict[str, str], page: int, last: int, per_page: int) -> str | None:
        if last <= 1:
            return None

        def link(number: int, rel: str) -> str:
            return f'<{self.url}{path}?{urlencode({**query, "per_page": per_page, "page": number})}>; rel="{rel}"'

        links = []
        if page > 1:
            links += [link(page - 1, "prev"), link(1, "first")]
        if page < last:
            links += [link(page + 1, "next"), link(last, "last")]
        return ", ".join(links)

    # -- the app -------------------------------------------------------------------------------
    def _keep(self, request: Any, body: Any) -> None:
        """Record a request for the test to read, and count it against the hourly limit as GitHub does."""
        self.requests.append((request.method, request.url.path, dict(request.query_params), body))
        self._used += 1

    async def _arrive(self, request: Any, *, writing: bool) -> tuple[Any, Any]:
        """A comment request's body (kept and counted), and the error it gets before its operation, or None."""
        body = await _read_body(request)
        self._keep(request, body)
        return body, self._check(request, writing=writing)

    def _check(self, request: Any, *, writing: bool) -> Any:
        """The error a request gets before its operation (credentials, rate limit, repository), or None."""
        header = request.headers.get("authorization", "")
        scheme, _, credential = header.partition(" ")
        if not credential:
            return self._error(401, "Requires authentication", "list-issue-comments")
        if scheme.lower() not in ("bearer", "token") or credential not in (self.token, self.read_only_token):
            return self._error(401, "Bad credentials", "list-issue-comments")
        if self._faults:
            return self._rate_limited(self._faults.pop(0))
        params = request.path_params
        if f"{params['owner']}/{params['name']}".lower() != self.repo.lower():
            return self._error(404, "Not Found", "list-issue-comments")
        if writing and credential != self.token:
            return self._error(403, "Resource not accessible by integration", "create-an-issue-comment")
        return None

    def _body_error(self, body: Any) -> Any:
        if not isinstance(body, dict) or not isinstance(body.get("body"), str):
            return self._error(
                422,
                'Invalid request.\n\n"body" wasn\'t supplied.',
                "create-an-issue-comment",
            )
        if len(body["body"]) > BODY_LIMIT:
            problem = {
                "resource": "IssueComment",
                "code": "custom",
                "field": "body",
                "message": f"body is too long (maximum is {BODY_LIMIT} characters)",
            }
            return self._error(422, "Validation Failed", "create-an-issue-comment", errors=[problem])
        return None

    def _list(self, request: Any, issue: int) -> Any:
        query = {key: value for key, value in request.query_params.items() if key not in ("page", "per_page")}
        try:
            per_page = min(MAX_PER_PAGE, max(1, int(request.query_params.get("per_page", DEFAULT_PER_PAGE))))
            page = max(1, int(request.query_params.get("page", 1)))
        except ValueError:
            return self._error(422, "Validation Failed", "list-issue-comments")
        comments = self.comments_on(issue)
        last = max(1, -(-len(comments) // per_page))
        shown = comments[(page - 1) * per_page : page * per_page]
        headers = self._headers()
        if (links := self._page_links(request.url.path, query, page, last, per_page)) is not None:
            headers["link"] = links
        return _json([self.comment_body(c) for c in shown], headers=headers)

    async def _issue_comments(self, request: Any) -> Any:
        """A pull request's comments: ``GET`` lists a page of them, ``POST`` adds one."""
        writing = request.method == "POST"
        body, problem = await self._arrive(request, writing=writing)
        if problem is not None:
            return problem
        issue = int(request.path_params["number"])
        if issue not in self.pulls:
            return self._error(404, "Not Found", "list-issue-comments")
        if not writing:
            return self._list(request, issue)
        if (problem := self._body_error(body)) is not None:
            return problem
        comment = self._add(issue, body["body"], self.user)
        made = self.comment_body(comment)
        headers = {**self._headers(), "location": made["url"]}
        return _json(made, status=201, headers=headers)

    # The same steps as _issue_comments (arrive, find or 404, read, or check the body and write), kept
    # apart: each endpoint finds its own thing and answers with its own documentation anchor.
    async def _one_comment(self, request: Any) -> Any:
        """One comment: ``GET`` reads it, ``PATCH`` changes its body."""
        writing = request.method == "PATCH"
        body, problem = await self._arrive(request, writing=writing)
        if problem is not None:
            return problem
        comment_id = int(request.path_params["comment_id"])
        comment = next((c for c in self.comments if c.id == comment_id), None)
        if comment is None:
            return self._error(404, "Not Found", "update-an-issue-comment")
        if not writing:
            return _json(self.comment_body(comment), headers=self._headers())
        if (problem := self._body_error(body)) is not None:
            return problem
        comment.body, comment.updated_at = body["body"], _now()
        return _json(self.comment_body(comment), headers=self._headers())

    async def _own_account(self, request: Any) -> Any:
        """``GET /user``: the account the token acts as."""
        self._keep(request, None)
        header = request.headers.get("authorization", "")
        if header.partition(" ")[2] not in (self.token, self.read_only_token):
            return self._error(401, "Bad credentials", "get-the-authenticated-user")
        if self.user.type == "Bot":  # an installation token acts as the app, which /user does not serve
            return self._error(403, "Resource not accessible by integration", "get-the-authenticated-user")
        return _json(self.user.body(self._web(), self.url), headers=self._headers())

    def _build(self) -> Any:
        from starlette.applications import Starlette
        from starlette.routing import Route

        base = "/repos/{owner}/{name}/issues"
        return Starlette(
            routes=[
                Route(base + "/{number:int}/comments", self._issue_comments, methods=["GET", "POST"]),
                Route(base + "/comments/{comment_id:int}", self._one_comment, methods=["GET", "PATCH"]),
                Route("/user", self._own_account, methods=["GET"]),
                Route("/{rest:path}", _elsewhere, methods=["GET", "POST", "PATCH", "PUT", "DELETE"]),
            ]
        )


__all__ = ["BODY_LIMIT", "FakeComment", "FakeGitHubComments", "FakeUser", "RateLimitFault"]
