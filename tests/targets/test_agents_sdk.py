"""The Agents SDK (Direct-to-Engine) client against the loopback fake: SSE turns, faults, pitfalls."""

from __future__ import annotations

import pytest

from copilot_eval.targets import CopilotStudioTarget
from copilot_eval.testing import (
    FALLBACK_TEXT,
    FakeAgentsSdk,
    LoopbackServer,
    Reply,
    Step,
    answer,
    http_error,
    message,
    silent,
    slow,
    typing_stream,
)
from tests.targets.targets_helpers import GROUNDED_TEXT, RAY_DOCS, ray_agent, sdk_agent


@pytest.fixture
def token(monkeypatch):
    monkeypatch.setenv("FAKE_PP_TOKEN", "fake-user-token")


async def test_greeting_and_grounded_answer_with_citations(token):
    fake = FakeAgentsSdk(ray_agent())
    async with LoopbackServer(fake):
        result = await sdk_agent(fake).play(["How do Ray tasks work?", "and the weather?"])
    assert result.success, result.error
    assert result.greeting[0]["text"].startswith("Hello")
    assert result.conversation_id in fake.conversations  # from the x-ms-conversationid header
    assert result.responses_per_prompt == [GROUNDED_TEXT, FALLBACK_TEXT]
    turn = result.turns[0]
    assert [c.url for c in turn.citations] == [url for url, _ in RAY_DOCS]
    assert turn.ended_by == "end_event" and turn.typing_seen is False and turn.streaming_seen is False
    assert fake.requests[0][2] == {"emitStartConversationEvent": True}
    assert fake.requests[1][2]["activity"]["conversation"]["id"] == result.conversation_id


async def test_typing_stream_is_seen_and_only_the_final_message_is_the_answer(token):
    fake = FakeAgentsSdk(ray_agent(stream=typing_stream(["Ray ", "tasks ", "are "], "Ray tasks are remote functions.")))
    async with LoopbackServer(fake):
        result = await sdk_agent(fake).play(["stream it"])
    turn = result.turns[0]
    assert turn.typing_seen is True and turn.streaming_seen is True
    assert turn.answer == "Ray tasks are remote functions."
    assert [a["type"] for a in turn.activities] == ["typing"] * 3 + ["message"]


async def test_http_errors_are_execution_errors_with_status_and_code(token):
    fake = FakeAgentsSdk(ray_agent(broken=http_error(500, "InternalError"), gone=http_error(403, "Forbidden")))
    async with LoopbackServer(fake):
        broken = await sdk_agent(fake).play(["broken"])
        gone = await sdk_agent(fake).play(["gone"])
    assert broken.turns[0].http_status == 500 and broken.turns[0].error_code == "InternalError"
    assert broken.responses_per_prompt == [None] and broken.stop_reason == "execution_error"
    assert gone.turns[0].http_status == 403


async def test_one_unreadable_activity_is_a_capture_error_not_the_end_of_the_turn(token):
    reply = Reply((Step(raw="{this is not json"), Step(activity=message("Still answered."))))
    fake = FakeAgentsSdk(ray_agent(bad=reply))
    async with LoopbackServer(fake):
        result = await sdk_agent(fake).play(["bad frame"])
    assert result.responses_per_prompt == ["Still answered."]
    assert len(result.capture_errors) == 1 and "unreadable activity" in result.capture_errors[0]


async def test_a_data_line_over_512_kib_is_read_whole(token):
    big = "x" * (600 * 1024)
    fake = FakeAgentsSdk(ray_agent(big=answer(big)))
    async with LoopbackServer(fake):
        result = await sdk_agent(fake).play(["big answer"])
    assert result.responses_per_prompt == [big]


async def test_the_turn_ends_at_end_even_when_the_server_holds_the_stream_open(token):
    fake = FakeAgentsSdk(ray_agent(), hold_open_s=30)
    async with LoopbackServer(fake):
        result = await sdk_agent(fake, timeout_s=10).play(["How do Ray tasks work?"])
    assert result.success and result.turns[0].ended_by == "end_event"


async def test_slow_and_silent_agents(token):
    fake = FakeAgentsSdk(ray_agent(slow=slow(5, answer("late")), silent=silent()))
    async with LoopbackServer(fake):
        late = await sdk_agent(fake, timeout_s=1).play(["slow"])
        quiet = await sdk_agent(fake).play(["silent"])
    assert late.stop_reason == "timeout" and late.turns[0].ended_by == "timeout" and late.responses_per_prompt == [None]
    assert quiet.responses_per_prompt == [None] and "sent no message" in quiet.error


async def test_conversation_id_falls_back_to_the_activity_when_the_header_is_missing(token):
    fake = FakeAgentsSdk(ray_agent(), send_conversation_header=False)
    async with LoopbackServer(fake):
        result = await sdk_agent(fake).play(["How do Ray tasks work?"])
    assert result.success and result.conversation_id == result.greeting[0]["conversation"]["id"]


async def test_a_missing_token_variable_names_it_and_a_wrong_token_is_401(monkeypatch, tmp_path):
    monkeypatch.delenv("FAKE_PP_TOKEN", raising=False)
    fake = FakeAgentsSdk(ray_agent())
    async with LoopbackServer(fake):
        missing = await sdk_agent(fake).play(["hi"])
        monkeypatch.setenv("FAKE_PP_TOKEN", "CANARY-wrong-token-77aa")
        wrong = await sdk_agent(fake).play(["hi"])
        path = wrong.save(tmp_path / "e.json")
    assert "FAKE_PP_TOKEN" in missing.error and not missing.success
    assert "HTTP 401" in wrong.error
    assert "CANARY-wrong-token-77aa" not in path.read_text()


def test_conversations_url_follows_the_sdk_host_rule():
    target = CopilotStudioTarget(
        environment_id="Aaaabbbb-1111-2222-3333-ccccddddeeee", schema_name="cr123_raybot", token_env="T"
    )
    assert target.conversations_url() == (
        "https://aaaabbbb111122223333ccccddddee.ee.environment.api.powerplatform.com"
        "/copilotstudio/dataverse-backed/authenticated/bots/cr123_raybot/conversations"
    )
    gov = CopilotStudioTarget(
        environment_id="aaaabbbb-1111-2222-3333-ccccddddeeee",
        schema_name="s",
        cloud="gov",
        token_env="T",
        agent_type="prebuilt",
    )
    assert gov.conversations_url().startswith("https://aaaabbbb111122223333ccccddddeee.e.environment.api.gov.")
    assert "/prebuilt/" in gov.conversations_url()
