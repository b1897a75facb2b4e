"""The fake issue-comment API answers in the shapes GitHub's REST reference documents, in every case."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlparse

import httpx
import jsonschema
import pytest

from copilot_eval.testing import FakeGitHubComments, LoopbackServer
from tests.github import api_shapes


def _headers(token: str | None) -> dict[str, str]:
    found = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    return found | ({"Authorization": f"Bearer {token}"} if token else {})


def _links(header: str) -> dict[str, str]:
    found = {}
    for part in header.split(", "):
        match = re.match(api_shapes.LINK_PART, part)
        assert match, f"not a documented Link part: {part!r}"
        found[match.group(2)] = match.group(1)
    return found


async def test_list_create_update_and_pages_have_the_documented_shapes():
    fake = FakeGitHubComments(pulls=(7,))
    fake.seed(7, "looks good", count=65)
    async with LoopbackServer(fake), httpx.AsyncClient(headers=_headers(fake.token)) as http:
        base = f"{fake.url}/repos/{fake.repo}/issues/7/comments"
        first = await http.get(base)
        assert first.status_code == 200 and len(first.json()) == 30  # the documented default page size
        jsonschema.validate(first.json(), api_shapes.ISSUE_COMMENT_LIST)
        for name in api_shapes.RATE_LIMIT_HEADERS:
            assert name in first.headers
        links = _links(first.headers["link"])
        assert set(links) == {"next", "last"}
        assert parse_qs(urlparse(links["last"]).query)["page"] == ["3"]
        second = await http.get(links["next"])
        assert set(_links(second.headers["link"])) == {"prev", "first", "next", "last"}
        big = await http.get(base, params={"per_page": 500})  # capped at 100
        assert len(big.json()) == 65 and "link" not in big.headers  # one page: no Link header
        ids = [c["id"] for c in big.json()]
        assert ids == sorted(ids)  # ascending ids, as documented

        made = await http.post(base, json={"body": "<!-- copilot-eval:gate -->\nhello"})
        assert made.status_code == 201
        jsonschema.validate(made.json(), api_shapes.ISSUE_COMMENT)
        assert made.headers["location"] == made.json()["url"]
        assert made.json()["user"]["login"] == "github-actions[bot]"
        changed = await http.patch(made.json()["url"], json={"body": "changed"})
        assert changed.status_code == 200 and changed.json()["body"] == "changed"
        jsonschema.validate(changed.json(), api_shapes.ISSUE_COMMENT)
        assert changed.json()["id"] == made.json()["id"]


@pytest.mark.parametrize(
    ("case", "status", "message"),
    [
        ("no token", 401, "Requires authentication"),
        ("unknown token", 401, "Bad credentials"),
        ("read-only token writes", 403, "Resource not accessible by integration"),
        ("other repository", 404, "Not Found"),
        ("unknown pull request", 404, "Not Found"),
        ("unknown comment", 404, "Not Found"),
    ],
)
async def test_every_refusal_has_the_documented_error_body(case, status, message):
    fake = FakeGitHubComments(pulls=(7,))
    async with LoopbackServer(fake), httpx.AsyncClient() as http:
        repo, number, token, method, path = fake.repo, 7, fake.token, "GET", None
        if case == "no token":
            token = None
        elif case == "unknown token":
            token = "ghp_notAToken0000000000000000000000000"
        elif case == "read-only token writes":
            token, method = fake.read_only_token, "POST"
        elif case == "other repository":
            repo = "someone/else"
        elif case == "unknown pull request":
            number = 8
        else:
            method, path = "PATCH", f"/repos/{repo}/issues/comments/12345"
        url = fake.url + (path or f"/repos/{repo}/issues/{number}/comments")
        answer = await http.request(
            method, url, headers=_headers(token), json={"body": "x"} if method != "GET" else None
        )
    assert answer.status_code == status
    jsonschema.validate(answer.json(), api_shapes.BASIC_ERROR)
    assert answer.json()["message"] == message


async def test_a_body_over_the_limit_and_a_missing_body_are_validation_errors():
    fake = FakeGitHubComments(pulls=(7,))
    async with LoopbackServer(fake), httpx.AsyncClient(headers=_headers(fake.token)) as http:
        base = f"{fake.url}/repos/{fake.repo}/issues/7/comments"
        fits = await http.post(base, json={"body": "x" * 65536})
        too_long = await http.post(base, json={"body": "x" * 65537})
        missing = await http.post(base, json={})
    assert fits.status_code == 201
    assert too_long.status_code == 422
    jsonschema.validate(too_long.json(), api_shapes.VALIDATION_ERROR)
    assert too_long.json()["errors"][0]["message"] == "body is too long (maximum is 65536 characters)"
    assert missing.status_code == 422


async def test_rate_limits_answer_as_documented():
    fake = FakeGitHubComments(pulls=(7,))
    fake.rate_limit(status=403, retry_after_s=7)
    fake.rate_limit(status=429, retry_after_s=None, reset_in_s=120)
    async with LoopbackServer(fake), httpx.AsyncClient(headers=_headers(fake.token)) as http:
        base = f"{fake.url}/repos/{fake.repo}/issues/7/comments"
        secondary, primary, fine = await http.get(base), await http.get(base), await http.get(base)
    assert secondary.status_code == 403 and secondary.headers["retry-after"] == "7"
    assert "secondary rate limit" in secondary.json()["message"]
    jsonschema.validate(secondary.json(), api_shapes.BASIC_ERROR)
    assert primary.status_code == 429 and primary.headers["x-ratelimit-remaining"] == "0"
    assert 100 <= int(primary.headers["x-ratelimit-reset"]) - time.time() <= 121
    assert "retry-after" not in primary.headers
    assert fine.status_code == 200
