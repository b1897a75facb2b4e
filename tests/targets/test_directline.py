"""The Direct Line client against the loopback Direct Line fake: answers, citations, faults, secrets."""

from __future__ import annotations

import json

from copilot_eval.targets import DirectLineTarget, StudioAgent
from copilot_eval.testing import (
    FALLBACK_TEXT,
    FakeDirectLine,
    LoopbackServer,
    answer,
    consent_card,
    end_of_conversation,
    http_error,
    messages,
    platform_error,
    silent,
    slow,
)
from tests.targets.targets_helpers import GROUNDED_TEXT, RAY_DOCS, directline_agent, ray_agent


async def test_grounded_answer_through_the_token_endpoint_has_visible_text_and_merged_citations():
    fake = FakeDirectLine(ray_agent())
    async with LoopbackServer(fake):
        result = await directline_agent(fake).play(["How do Ray tasks work?"])
    assert result.success, result.error
    turn = result.turns[0]
    assert turn.answer == GROUNDED_TEXT  # reference-link definitions removed, markers kept
    assert [(c.position, c.url, c.title) for c in turn.citations] == [
        ("1", RAY_DOCS[0][0], RAY_DOCS[0][1]),
        ("2", RAY_DOCS[1][0], RAY_DOCS[1][1]),
    ]
    assert all(c.sources == ["markdown", "entity"] for c in turn.citations)
    assert turn.citations[0].abstract == "An excerpt of Ray Tasks."
    assert turn.activities[0]["replyToId"] == turn.sent_activity_id  # raw activity kept
    assert turn.typing_seen is None  # REST polling cannot see typing: unknown, not False
    assert turn.latency_ms is not None and turn.ended_by == "quiet"
    assert result.conversation_id in fake.conversations
    # the regional channel settings were asked for, and the answer was fetched by polling
    paths = [path for _, path, _ in fake.requests]
    assert "/powervirtualagents/regionalchannelsettings" in paths
    assert all(request.status is not None and request.status < 400 for request in result.http)


async def test_a_fallback_is_an_answer_and_the_session_succeeds():
    fake = FakeDirectLine(ray_agent())
    async with LoopbackServer(fake):
        result = await directline_agent(fake).play(["What is the weather?"])
    assert result.success
    assert result.responses_per_prompt == [FALLBACK_TEXT]


async def test_http_500_and_502_are_execution_errors_with_status_and_code():
    fake = FakeDirectLine(ray_agent(broken=http_error(500), rejected=http_error(502, "BotRejectedActivity")))
    async with LoopbackServer(fake):
        broken = await directline_agent(fake).play(["broken question"])
        rejected = await directline_agent(fake).play(["rejected question"])
    for result, status in ((broken, 500), (rejected, 502)):
        assert not result.success and result.stop_reason == "execution_error"
        assert result.responses_per_prompt == [None]
        assert result.turns[0].http_status == status
        assert f"HTTP {status}" in result.error
    assert rejected.turns[0].error_code == "BotRejectedActivity"


async def test_429_is_retried_after_retry_after_and_then_answered():
    fake = FakeDirectLine(ray_agent(busy=http_error(429, retry_after=0.1, times=1)))
    async with LoopbackServer(fake):
        result = await directline_agent(fake).play(["busy question"])
    statuses = [h.status for h in result.http if h.method == "POST" and h.url.endswith("/activities")]
    assert statuses == [429, 200]
    assert result.success and result.responses_per_prompt == [FALLBACK_TEXT]


async def test_429_past_the_retries_and_403_token_expired_are_errors():
    fake = FakeDirectLine(ray_agent(busy=http_error(429, retry_after=0.05), expired=http_error(403, "TokenExpired")))
    async with LoopbackServer(fake):
        busy = await directline_agent(fake, max_retries=1).play(["busy"])
        expired = await directline_agent(fake).play(["expired"])
    assert busy.turns[0].http_status == 429 and busy.responses_per_prompt == [None]
    assert expired.turns[0].error_code == "TokenExpired" and expired.turns[0].http_status == 403


async def test_slow_and_silent_agents_end_at_the_turn_timeout_without_an_answer():
    fake = FakeDirectLine(ray_agent(slow=slow(5, answer("late")), silent=silent()))
    async with LoopbackServer(fake):
        late = await directline_agent(fake, timeout_s=1).play(["slow one"])
        quiet = await directline_agent(fake, timeout_s=1).play(["silent one"])
    for result in (late, quiet):
        assert result.responses_per_prompt == [None]
        assert result.stop_reason == "timeout" and result.turns[0].ended_by == "timeout"
        assert "no reply from the agent within 1 s" in result.error


async def test_several_messages_form_one_answer_and_a_platform_error_code_is_an_error():
    fake = FakeDirectLine(ray_agent(two=messages("First part.", "Second part."), oops=platform_error("SystemError")))
    async with LoopbackServer(fake):
        two = await directline_agent(fake).play(["two messages"])
        oops = await directline_agent(fake).play(["oops"])
    assert two.turns[0].messages == ["First part.", "Second part."]
    assert two.responses_per_prompt == ["First part.\n\nSecond part."]
    assert oops.turns[0].error_code == "SystemError" and oops.responses_per_prompt == [None]
    assert "error code SystemError" in oops.error


async def test_consent_card_end_of_conversation_and_a_greeting_are_recorded():
    fake = FakeDirectLine(ray_agent(consent=consent_card(), bye=end_of_conversation("Goodbye.")))
    async with LoopbackServer(fake):
        result = await directline_agent(fake, start_conversation_event=True).play(["consent please", "bye"])
    assert result.greeting and result.greeting[0]["text"].startswith("Hello")
    card, bye = result.turns
    assert [a.kind for a in card.attachments] == ["consent_card"] and card.answer == ""
    assert bye.ended_by == "end_of_conversation" and bye.events == ["endOfConversation"]


async def test_a_conversation_gets_one_answer_per_prompt_without_the_users_echo():
    fake = FakeDirectLine(ray_agent(hello=answer("Hi there.")))
    async with LoopbackServer(fake):
        result = await directline_agent(fake).play(["hello", "How do Ray tasks work?"])
    assert result.responses_per_prompt == ["Hi there.", GROUNDED_TEXT]
    assert all(a["from"]["role"] == "bot" for turn in result.turns for a in turn.activities)
    assert len(fake.conversations[result.conversation_id].log) == 4  # two echoes, two replies, one conversation


async def test_a_failed_turn_ends_the_conversation_and_later_prompts_are_not_asked():
    fake = FakeDirectLine(ray_agent(broken=http_error(500)))
    async with LoopbackServer(fake):
        result = await directline_agent(fake).play(["broken", "How do Ray tasks work?"])
    assert result.responses_per_prompt == [None]


async def test_tokens_are_refreshed_before_they_expire():
    # The first turn outlives the token's 4 s lifetime: without a refresh the second turn gets 403. The
    # refresh is due after half the lifetime and is sent by the next poll; a loaded machine (load 19 here
    # once) can delay a poll by more than a second, so the lifetime leaves two for it (an expired token
    # cannot be refreshed).
    fake = FakeDirectLine(ray_agent(wait=slow(5.0, answer("Waited."))), token_lifetime_s=4.0)
    async with LoopbackServer(fake):
        result = await directline_agent(fake, timeout_s=10.0).play(["wait for it", "How do Ray tasks work?"])
    assert result.success, result.error
    assert ("POST", "/v3/directline/tokens/refresh", True) in fake.requests


async def test_secret_path_never_writes_the_secret_or_tokens(tmp_path, monkeypatch):
    canary = "CANARY-dl-secret-4f9a1c7e"
    monkeypatch.setenv("RAYBOT_DL_SECRET", canary)
    fake = FakeDirectLine(ray_agent(), secret=canary)
    async with LoopbackServer(fake):
        agent = StudioAgent(
            target=DirectLineTarget(
                secret_env="RAYBOT_DL_SECRET", directline_url=fake.directline_url, quiet_s=0.2, poll_interval_s=0.05
            ),
            timeout_s=5,
        )
        result = await agent.play(["How do Ray tasks work?"])
        path = result.save(tmp_path / "evidence.json")
    assert result.success, result.error
    assert ("POST", "/v3/directline/tokens/generate", True) in fake.requests
    text = path.read_text()
    assert canary not in text and "dlt_" not in text  # neither the secret nor any issued token
    assert json.loads(text)["derived"]["final_response"] == GROUNDED_TEXT


async def test_a_missing_secret_variable_is_an_error_naming_it(monkeypatch):
    monkeypatch.delenv("NOT_SET_DL_SECRET", raising=False)
    agent = StudioAgent(target=DirectLineTarget(secret_env="NOT_SET_DL_SECRET"), timeout_s=2)
    result = await agent.play(["anything"])
    assert not result.success and "NOT_SET_DL_SECRET" in result.error and result.turns == []


async def test_the_websocket_stream_delivers_typing_and_duplicates_are_dropped(tmp_path):
    from copilot_eval.testing import typing_stream

    fake = FakeDirectLine(ray_agent(stream=typing_stream(["Ray ", "tasks "], "Ray tasks are remote functions.")))
    async with LoopbackServer(fake):
        result = await directline_agent(fake, websocket=True).play(["stream it", "How do Ray tasks work?"])
        path = result.save(tmp_path / "e.json")
    assert result.success, result.error
    first, second = result.turns
    assert first.typing_seen is True and first.streaming_seen is True
    assert first.answer == "Ray tasks are remote functions."
    # every activity once, though the stream and polling both delivered the messages
    ids = [a["id"] for turn in result.turns for a in turn.activities]
    assert len(ids) == len(set(ids)) and second.answer == GROUNDED_TEXT and second.typing_seen is False
    stream = next(h for h in result.http if h.method == "WEBSOCKET")
    assert stream.status == 101 and stream.url.endswith("stream?t=[redacted]")
    assert "dlt_" not in path.read_text()  # the stream URL's token is not kept


async def test_a_refused_stream_falls_back_to_polling_and_says_so():
    fake = FakeDirectLine(ray_agent(), websocket=False)
    async with LoopbackServer(fake):
        result = await directline_agent(fake, websocket=True).play(["How do Ray tasks work?"])
    assert result.success and result.responses_per_prompt == [GROUNDED_TEXT]
    assert result.turns[0].typing_seen is None  # without the stream, typing cannot be seen: unknown
    assert len(result.capture_errors) == 1 and "polling only" in result.capture_errors[0]


async def test_401_with_a_wrong_secret_and_404_for_an_unknown_agent_are_errors_naming_status_and_code(monkeypatch):
    monkeypatch.setenv("WRONG_DL_SECRET", "not-the-secret-value")
    fake = FakeDirectLine(ray_agent(), secret="the-real-secret-value")
    async with LoopbackServer(fake):
        wrong = await StudioAgent(
            target=DirectLineTarget(secret_env="WRONG_DL_SECRET", directline_url=fake.directline_url), timeout_s=5
        ).play(["q"])
        unknown = await StudioAgent(
            target=DirectLineTarget(token_endpoint=fake.token_endpoint.replace(fake.schema, "cr123_other")), timeout_s=5
        ).play(["q"])
    assert wrong.error.startswith("HTTP 401 BadArgument") and wrong.turns == []
    assert unknown.error.startswith("HTTP 404 BotNotFound") and unknown.stop_reason == "execution_error"
