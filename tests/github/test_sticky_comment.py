"""One sticky comment per pull request: found across pages, updated, created once, cut to fit, every refusal named."""

from __future__ import annotations

import pytest

from copilot_eval.github import (
    AuthenticationError,
    GitHubComments,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    fit_body,
    marker,
    post_sticky,
)
from copilot_eval.redaction import redact
from copilot_eval.testing import FakeGitHubComments, LoopbackServer
from copilot_eval.testing.github_fake import FakeUser


class Clock:
    """A sleep that records how long it was asked to wait instead of waiting."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def _client(
    fake: FakeGitHubComments, *, token: str | None = None, clock: Clock | None = None, **options
) -> GitHubComments:
    return GitHubComments(
        repo=fake.repo, token=token or fake.token, api_url=fake.url, sleep=clock or Clock(), **options
    )


async def test_the_comment_is_created_once_then_updated_never_doubled():
    fake = FakeGitHubComments(pulls=(7,))
    fake.seed(7, "a reviewer's comment")
    async with LoopbackServer(fake), _client(fake) as client:
        first = await post_sticky(client, 7, "score 80%")
        second = await post_sticky(client, 7, "score 90%")
    assert (first.action, second.action) == ("created", "updated")
    assert first.comment_id == second.comment_id
    ours = [c for c in fake.comments_on(7) if marker("gate", fake.repo) in c.body]
    assert len(ours) == 1 and ours[0].body == marker("gate", fake.repo) + "\nscore 90%"
    assert fake.comments_on(7)[0].body == "a reviewer's comment"  # someone else's comment is left alone
    assert sum(method == "POST" for method, *_ in fake.requests) == 1


async def test_the_comment_is_found_on_the_second_page_and_keys_keep_comments_apart():
    fake = FakeGitHubComments(pulls=(7,))
    fake.seed(7, "chatter", count=130)  # more than one page of 100
    async with LoopbackServer(fake), _client(fake) as client:
        await post_sticky(client, 7, "first")  # comment 131: on page 2
        again = await post_sticky(client, 7, "second")
        other = await post_sticky(client, 7, "nightly", key="nightly")
    pages = [query.get("page") for method, _, query, _ in fake.requests if method == "GET"]
    assert again.action == "updated" and "2" in pages
    assert other.action == "created" and other.comment_id != again.comment_id
    assert [c.body.splitlines()[-1] for c in fake.comments_on(7)[-2:]] == ["second", "nightly"]


async def test_a_comment_deleted_meanwhile_is_created_again():
    fake = FakeGitHubComments(pulls=(7,))
    async with LoopbackServer(fake), _client(fake) as client:
        made = await post_sticky(client, 7, "one")
        real_update = client.update_comment

        async def deleted_first(comment_id: int, body: str):
            fake.comments = [c for c in fake.comments if c.id != comment_id]
            return await real_update(comment_id, body)

        client.update_comment = deleted_first  # type: ignore[method-assign]
        again = await post_sticky(client, 7, "two")
    assert again.action == "created" and again.comment_id != made.comment_id
    assert len(fake.comments_on(7)) == 1


def _table(rows: int) -> str:
    lines = ["## Regressions", "", "| case | then | now | reason |", "| --- | --- | --- | --- |"]
    lines += [f"| case {n} | pass | fail | {'the answer left out the deposit ' * 8} |" for n in range(rows)]
    return "\n".join([*lines, "", "Usage: 1,234 tokens"])


async def test_a_body_over_the_limit_is_cut_at_a_row_boundary_and_says_where_the_rest_is():
    text = _table(1200)
    fitted = fit_body(text, repo="octo-org/bike-agent", full_report="https://ci.example/run/5")
    assert len(text) > 65536 >= len(fitted.body)
    kept_rows = [line for line in fitted.body.splitlines() if line.startswith("| case ") and "| pass |" in line]
    assert kept_rows and all(line.endswith(" |") for line in kept_rows)  # whole rows only
    assert fitted.rows_left_out == 1200 - len(kept_rows) and fitted.lines_left_out == 2
    assert f"{fitted.rows_left_out:,} table rows and 2 other lines left out" in fitted.body
    assert fitted.body.rstrip().endswith("the full report: https://ci.example/run/5")
    fake = FakeGitHubComments(pulls=(7,))
    async with LoopbackServer(fake), _client(fake) as client:
        posted = await post_sticky(client, 7, text, full_report="https://ci.example/run/5")
    assert posted.fitted.cut and fake.comments_on(7)[0].body == fitted.body  # GitHub took it


def test_the_cut_closes_what_it_leaves_open_and_counts_wide_characters():
    block = "<details><summary>tools</summary>\n\n```diff\n" + "\n".join(f"- step {n} 🚲" for n in range(40000))
    fitted = fit_body(block)
    assert fitted.cut and len(fitted.body.encode("utf-16-le")) // 2 <= 65536
    body = fitted.body
    assert body.count("```") % 2 == 0 and body.count("<details>") == body.count("</details>")
    assert "the full report is in the job's step summary" in body
    short = fit_body("short")
    assert not short.cut and short.body == marker("gate") + "\nshort"
    assert marker("gate", "octo-org/a") != marker("gate", "octo-org/b") != marker("nightly", "octo-org/b")
    with pytest.raises(ValueError, match="--key"):
        marker("no spaces please")


@pytest.mark.parametrize(
    ("setup", "error", "says"),
    [
        ("unknown token", AuthenticationError, "does not accept the token in GITHUB_TOKEN"),
        ("read-only token", PermissionDeniedError, "permissions: pull-requests: write"),
        ("other repository", NotFoundError, "check --repo and --pr"),
        ("unknown pull request", NotFoundError, "pull request #8 of repository octo-org/bike-agent was not found"),
    ],
)
async def test_every_refusal_says_what_is_missing(setup, error, says):
    fake = FakeGitHubComments(pulls=(7,))
    token, repo, number = fake.token, fake.repo, 7
    if setup == "unknown token":
        token = "ghp_unknownToken00000000000000000000000"
    elif setup == "read-only token":
        token = fake.read_only_token
    elif setup == "other repository":
        repo = "someone/else"
    else:
        number = 8
    async with LoopbackServer(fake), GitHubComments(repo=repo, token=token, api_url=fake.url, sleep=Clock()) as client:
        with pytest.raises(error) as raised:
            await post_sticky(client, number, "hello")
    assert says in str(raised.value)
    assert token not in str(raised.value)


async def test_rate_limits_are_waited_out_as_github_asks_then_given_up():
    fake = FakeGitHubComments(pulls=(7,))
    fake.rate_limit(status=403, retry_after_s=7)  # secondary limit
    fake.rate_limit(status=429, retry_after_s=None, reset_in_s=30)  # primary limit
    clock = Clock()
    async with LoopbackServer(fake), _client(fake, clock=clock) as client:
        posted = await post_sticky(client, 7, "hello")
    assert posted.action == "created"
    assert clock.waits[0] == 7 and 25 <= clock.waits[1] <= 32
    fake.rate_limit(times=10, status=403, retry_after_s=1)
    clock = Clock()
    async with LoopbackServer(fake), _client(fake, clock=clock, max_retries=3) as client:
        with pytest.raises(RateLimitedError, match="gave up after 3 retries") as raised:
            await post_sticky(client, 7, "hello")
    assert clock.waits == [1, 1, 1] and raised.value.infrastructure
    fake = FakeGitHubComments(pulls=(7,))
    fake.rate_limit(status=429, retry_after_s=3600)
    async with LoopbackServer(fake), _client(fake, max_wait_s=300) as client:
        with pytest.raises(RateLimitedError, match="asked to wait 3600 s"):
            await post_sticky(client, 7, "hello")


def test_the_token_is_registered_with_the_redactor():
    GitHubComments(repo="a/b", token="ghs_registeredAtOnce0123456789abcdef", token_name="MY_GH_TOKEN")
    assert redact("token ghs_registeredAtOnce0123456789abcdef leaked") == "token [redacted:MY_GH_TOKEN] leaked"


# -- the comment is ours alone ----------------------------------------------------------------
async def test_a_comment_quoting_the_marker_is_never_taken_over_by_a_workflow_token():
    fake = FakeGitHubComments(pulls=(7,))  # the workflow's token: GitHub will not say who it is (403 on /user)
    ours = marker("gate", fake.repo)
    fake.seed(7, f"{ours}\nI copied the marker on purpose")  # a person, the marker on the first line
    fake.seed(7, f"<!-- copilot-eval:nightly:0 -->\nan answer quoted: {ours}", login="other[bot]", user_type="Bot")
    async with LoopbackServer(fake), _client(fake) as client:
        posted = await post_sticky(client, 7, "score 80%")
    assert posted.action == "created"
    assert [c.body.splitlines()[-1] for c in fake.comments_on(7)] == [
        "I copied the marker on purpose",
        f"an answer quoted: {ours}",
        "score 80%",
    ]  # neither the person's comment nor another key's comment quoting ours was touched
    assert ("GET", "/user", {}, None) in fake.requests


async def test_a_users_token_keeps_only_the_comment_its_own_account_wrote():
    fake = FakeGitHubComments(pulls=(7,), user=FakeUser(login="release-bot-user", id=77, type="User"))
    ours = marker("gate", fake.repo)
    fake.seed(7, f"{ours}\nforged by someone else")
    async with LoopbackServer(fake), _client(fake) as client:
        first = await post_sticky(client, 7, "one")
        second = await post_sticky(client, 7, "two")
    assert (first.action, second.action) == ("created", "updated") and first.comment_id == second.comment_id
    assert fake.comments_on(7)[0].body.endswith("forged by someone else")
    assert fake.comments_on(7)[1].body == f"{ours}\ntwo" and fake.comments_on(7)[1].user.login == "release-bot-user"


async def test_an_earlier_versions_comment_of_the_same_account_is_taken_over_once():
    fake = FakeGitHubComments(pulls=(7,))
    async with LoopbackServer(fake), _client(fake) as client:
        old = await client.create_comment(7, "<!-- copilot-eval:gate -->\nthe old report")
        posted = await post_sticky(client, 7, "the new report")
    assert posted.action == "updated" and posted.comment_id == old["id"]
    assert fake.comments_on(7)[0].body == marker("gate", fake.repo) + "\nthe new report"


def test_a_marker_inside_the_text_is_shown_as_text_not_kept_as_a_marker():
    fitted = fit_body("answer: <!-- copilot-eval:gate --> and <!--copilot-eval:x:1-->", repo="octo-org/bike-agent")
    head, rest = fitted.body.split("\n", 1)
    assert head == marker("gate", "octo-org/bike-agent")
    assert "<!--" not in rest and "&lt;!-- copilot-eval:gate --&gt;" not in rest and "copilot-eval:gate" in rest
