"""The evaluation API client against the loopback fake: the six operations, backoff, and every failure."""

from __future__ import annotations

import re
import socket
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from copilot_eval.redaction import contains_secret, registered_secret_names
from copilot_eval.studio_eval import (
    WRITE_PERMISSION,
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    PublishedRunError,
    RunInProgressError,
    RunTimeoutError,
    ServerError,
    StudioEvalClient,
    StudioTokenError,
    ThrottledError,
    TransportError,
    token_from_env,
    wait_for_run,
)
from copilot_eval.studio_eval.client import _file_name
from copilot_eval.studio_eval.errors import retry_after_seconds
from copilot_eval.testing import FakeStudioEval, LoopbackServer
from tests.studio_eval.studio_helpers import bike_shop_set


def client_for(fake: FakeStudioEval, token: str | None = None, **fields) -> StudioEvalClient:
    """A client of ``fake``'s agent with ``token`` (default: the fake's full token)."""
    value = token or fake.token
    return StudioEvalClient(
        environment_id=fields.pop("environment_id", fake.environment_id),
        bot_id=fields.pop("bot_id", fake.bot_id),
        token=lambda: value,
        api_url=fake.api_url,
        **fields,
    )


async def test_the_six_operations_list_run_poll_and_download():
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set])
    async with LoopbackServer(fake), client_for(fake) as client:
        sets = await client.list_test_sets()
        assert [(s.id, s.display_name, s.state, s.total_test_cases) for s in sets] == [
            (test_set.id, "Bike shop nightly", "Active", 4)
        ]
        assert (await client.get_test_set(test_set.id)).modified_time == datetime(2026, 11, 20, 16, 30, tzinfo=UTC)
        status = await client.run_test_set(test_set.id, run_name="nightly", connection_id="conn-1")
        assert (status.state, status.total) == ("Queued", 4) and status.callback_uri.endswith(
            status.run_id + "?api-version=2024-10-01"
        )
        seen = []
        run = await wait_for_run(client, status.run_id, poll_s=0, on_progress=lambda r: seen.append(r.state))
        assert seen == ["Queued", "InProgress", "InProgress", "Completed"]
        assert run.finished and run.connection_id == "conn-1" and run.processed == 4
        assert [c.test_case_id for c in run.results] == [c["testCaseId"] for c in test_set.cases]
        third = run.results[2].metrics[1]
        assert (third.type, third.status, third.ai_reason, third.error_reason) == (
            "CompareMeaning",
            "Fail",
            "Leaves out the e-bike deposit (score 45).",
            None,
        )
        assert [r.id for r in await client.list_runs()] == [run.id]
        snapshot = await client.download_snapshot(run.id)
        assert snapshot.content.startswith(b"PK") and snapshot.file_name == f"Fake_agent_{run.id}.zip"
    posted = [body for method, _, body in fake.requests if method == "POST"]
    assert posted == [{"evaluationRunName": "nightly", "mcsConnectionId": "conn-1", "runOnPublishedBot": False}]


async def test_reads_back_off_after_retry_after_on_429_and_503_and_then_succeed():
    fake = FakeStudioEval([bike_shop_set()])
    async with LoopbackServer(fake), client_for(fake) as client:
        fake.throttle_reads(2, retry_after_s=0.01)
        fake.throttle_reads(1, retry_after_s=0.01, status=503)
        assert len(await client.list_test_sets()) == 1
    assert [path.rsplit("/", 1)[-1] for _, path, _ in fake.requests] == ["testsets"] * 4
    assert [e["status"] for e in client.exchanges] == [429, 429, 503, 200]


async def test_a_read_gives_up_when_retry_after_is_longer_than_it_may_wait():
    fake = FakeStudioEval([bike_shop_set()])
    async with LoopbackServer(fake), client_for(fake, max_wait_s=5) as client:
        fake.throttle_reads(1, retry_after_s=600)
        with pytest.raises(ThrottledError) as caught:
            await client.list_runs()
    assert caught.value.retry_after_s == 600 and "retry after 600 s" in str(caught.value)
    assert len(fake.requests) == 1


async def test_the_run_request_is_never_retried_on_the_daily_limit():
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set], daily_limit=0, limit_retry_after_s=5400)
    async with LoopbackServer(fake), client_for(fake) as client:
        with pytest.raises(ThrottledError) as caught:
            await client.run_test_set(test_set.id, run_name="x")
    assert [m for m, _, _ in fake.requests] == ["POST"]  # one request: a retry cannot lift the limit
    error = caught.value
    assert error.status == 429 and error.retry_after_s == 5400 and error.infrastructure
    assert abs((error.resets_at - datetime.now(UTC)) - timedelta(seconds=5400)) < timedelta(seconds=30)


async def test_busy_agent_is_409_or_422_and_says_a_run_is_in_progress():
    for status in (409, 422):
        test_set = bike_shop_set()
        fake = FakeStudioEval([test_set], busy_status=status)
        async with LoopbackServer(fake), client_for(fake) as client:
            fake.start_elsewhere(test_set)
            with pytest.raises(RunInProgressError) as caught:
                await client.run_test_set(test_set.id, run_name="x")
        assert caught.value.status == status and "a run is already in progress for this agent" in str(caught.value)


async def test_a_published_run_answered_500_suggests_the_draft():
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set], published_fails=True)
    async with LoopbackServer(fake), client_for(fake) as client:
        with pytest.raises(PublishedRunError) as caught:
            await client.run_test_set(test_set.id, run_name="x", published=True)
        draft = await client.run_test_set(test_set.id, run_name="x")
    assert "run the draft instead (leave out --published)" in str(caught.value)
    assert draft.run_id in fake.runs


async def test_401_names_the_login_and_the_token_is_asked_for_again_once():
    fake = FakeStudioEval([bike_shop_set()])
    asked = []

    def stale() -> str:
        asked.append(1)
        return "an-expired-token-value"

    async with (
        LoopbackServer(fake),
        StudioEvalClient(
            environment_id=fake.environment_id, bot_id=fake.bot_id, token=stale, api_url=fake.api_url
        ) as client,
    ):
        with pytest.raises(AuthenticationError) as caught:
            await client.list_test_sets()
    assert len(asked) == 2 and caught.value.status == 401
    assert "copilot-eval login --client-id" in str(caught.value) and "--token-env" in str(caught.value)


async def test_403_names_the_missing_permission():
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set])
    async with LoopbackServer(fake), client_for(fake, fake.read_only_token) as client:
        assert len(await client.list_test_sets()) == 1  # Read is enough to list
        with pytest.raises(PermissionDeniedError) as caught:
            await client.run_test_set(test_set.id, run_name="x")
    text = str(caught.value)
    assert caught.value.code == "InsufficientDelegatedPermissions"
    assert f"lacks the delegated Power Platform API permission {WRITE_PERMISSION}" in text


async def test_404_says_which_id_was_not_found():
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set])
    async with LoopbackServer(fake):
        async with client_for(fake, bot_id="no-such-bot") as client:
            with pytest.raises(NotFoundError, match=r"bot no-such-bot of environment .* was not found"):
                await client.list_test_sets()
        async with client_for(fake) as client:
            with pytest.raises(NotFoundError, match="test set missing-set was not found"):
                await client.get_test_set("missing-set")
            with pytest.raises(NotFoundError, match="test set missing-set was not found"):
                await client.run_test_set("missing-set", run_name="x")
            with pytest.raises(NotFoundError, match="run missing-run was not found"):
                await client.get_run("missing-run")
            with pytest.raises(NotFoundError, match=r"Test run not found\. run missing-run was not found"):
                await client.download_snapshot("missing-run")


async def test_no_response_is_a_transport_error_naming_the_api_url():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again before the request: nothing listens there
    client = StudioEvalClient(
        environment_id="e", bot_id="b", token=lambda: "t" * 12, api_url=f"http://127.0.0.1:{port}"
    )
    async with client:
        with pytest.raises(TransportError, match="did not answer: check the network or --api-url") as caught:
            await client.list_test_sets()
    assert caught.value.infrastructure and caught.value.status is None


async def test_a_run_still_going_at_the_timeout_says_how_to_read_it_later():
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set], running_polls=50)
    async with LoopbackServer(fake), client_for(fake) as client:
        status = await client.run_test_set(test_set.id, run_name="x")
        with pytest.raises(RunTimeoutError) as caught:
            await wait_for_run(client, status.run_id, poll_s=0, timeout_s=0)
    assert caught.value.run_id == status.run_id and caught.value.state == "Queued"
    assert f"copilot-eval studio-eval get {status.run_id}" in str(caught.value)


async def test_server_errors_on_reads_are_retried_then_reported():
    fake = FakeStudioEval([bike_shop_set()])
    async with LoopbackServer(fake), client_for(fake, max_retries=1) as client:
        fake.throttle_reads(3, retry_after_s=0, status=503)
        with pytest.raises(ServerError, match="HTTP 503"):
            await client.list_runs()
    assert len(fake.requests) == 2


async def test_the_token_is_registered_with_the_redactor_under_its_variable(monkeypatch):
    fake = FakeStudioEval([bike_shop_set()], token="tok-" + "s3cr3t" * 6)
    monkeypatch.setenv("MY_PP_TOKEN", fake.token)
    async with (
        LoopbackServer(fake),
        StudioEvalClient(
            environment_id=fake.environment_id,
            bot_id=fake.bot_id,
            token=token_from_env("MY_PP_TOKEN"),
            token_name="MY_PP_TOKEN",
            api_url=fake.api_url,
        ) as client,
    ):
        await client.list_test_sets()
    assert "MY_PP_TOKEN" in registered_secret_names() and contains_secret(f"Bearer {fake.token}")


def test_an_unset_token_variable_says_what_it_must_hold(monkeypatch):
    monkeypatch.delenv("NOT_SET_PP_TOKEN", raising=False)
    with pytest.raises(StudioTokenError, match=r"NOT_SET_PP_TOKEN \(--token-env\) is not set.*user-delegated token"):
        token_from_env("NOT_SET_PP_TOKEN")()


def test_retry_after_reads_seconds_and_http_dates():
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    assert retry_after_seconds("120", now=now) == 120
    assert retry_after_seconds(format_datetime(now + timedelta(hours=2), usegmt=True), now=now) == 7200
    assert retry_after_seconds("soon", now=now) is None and retry_after_seconds(None) is None


def test_error_bodies_give_code_and_message_wrapped_or_not_and_are_cut_at_500():
    import httpx

    from copilot_eval.targets.http import error_of

    def read(body: bytes, **keywords) -> tuple[str | None, str]:
        return error_of(httpx.Response(400, content=body), **keywords)

    wrapped = b'{"error": {"code": "BadArgument", "message": "no such set"}}'
    assert read(wrapped, limit=500, bare=True) == read(wrapped) == ("BadArgument", "no such set")
    unwrapped = b'{"code": "Throttled", "message": "try later"}'
    assert read(unwrapped, limit=500, bare=True) == ("Throttled", "try later")
    assert read(unwrapped) == (None, "{'code': 'Throttled', 'message': 'try later'}")  # the targets' reading
    long_text = b"x" * 900
    assert read(long_text, limit=500, bare=True) == (None, "x" * 500) and read(long_text) == (None, "x" * 300)


def test_snapshot_file_names_never_leave_the_folder():
    assert _file_name('attachment; filename="agent_1.zip"') == "agent_1.zip"
    assert _file_name("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.zip") == "résumé.zip"
    assert _file_name('attachment; filename="../../etc/passwd"') == "passwd"
    assert _file_name('attachment; filename=".."') is None and _file_name(None) is None
    assert re.fullmatch(r"[^/\\]+", _file_name('attachment; filename="a\\b.zip"'))


async def test_a_success_body_without_the_documented_shape_is_an_unexpected_response():
    import httpx

    from copilot_eval.studio_eval import UnexpectedResponseError

    bodies = {"/testsets": b'{"items": []}', "/testruns": b"<html>sign in</html>", "/testruns/r1": b'{"name": "no id"}'}

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path.split("/makerevaluation", 1)[1]
        return httpx.Response(200, content=bodies[path], headers={"content-type": "application/json"})

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = StudioEvalClient(
        environment_id="e", bot_id="b", token=lambda: "t" * 12, api_url="https://pp.example", http=http
    )
    async with http:
        with pytest.raises(UnexpectedResponseError, match="the body has no 'value' list"):
            await client.list_test_sets()
        with pytest.raises(UnexpectedResponseError, match="the body is not JSON"):
            await client.list_runs()
        with pytest.raises(UnexpectedResponseError, match="a test run without an id") as caught:
            await client.get_run("r1")
    assert caught.value.infrastructure
