"""Conformance: the official microsoft-agents-copilotstudio-client (pinned) talks to our Agents SDK fake.

If Microsoft's own client can start a conversation and ask questions against the fake, the fake
speaks the real protocol; our httpx client must then read the same activities from it.
"""

from __future__ import annotations

import pytest

from copilot_eval.targets import CopilotStudioTarget
from copilot_eval.testing import FALLBACK_TEXT, FakeAgentsSdk, LoopbackServer
from tests.targets.targets_helpers import GROUNDED_TEXT, ray_agent, sdk_agent

client = pytest.importorskip("microsoft_agents.copilotstudio.client")


async def _official_conversation(fake: FakeAgentsSdk, questions: list[str]) -> tuple[list, list[list]]:
    settings = client.ConnectionSettings(
        environment_id="", agent_identifier="", direct_connect_url=fake.direct_connect_url
    )
    copilot = client.CopilotClient(settings, fake.token)
    greeting = [activity async for activity in copilot.start_conversation(emit_start_conversation_event=True)]
    answers = []
    for question in questions:
        answers.append([activity async for activity in copilot.ask_question(question, copilot.conversation_id)])
    return greeting, answers


async def test_the_official_client_and_ours_read_the_same_activities_from_the_fake(monkeypatch):
    monkeypatch.setenv("FAKE_PP_TOKEN", "fake-user-token")
    fake = FakeAgentsSdk(ray_agent())
    questions = ["How do Ray tasks work?", "What is the weather?"]
    async with LoopbackServer(fake):
        greeting, answers = await _official_conversation(fake, questions)
        ours = await sdk_agent(fake).play(questions)
    assert greeting[0].text == ours.greeting[0]["text"]
    official_texts = [[a.text for a in turn if a.type == "message"] for turn in answers]
    our_texts = [[a["text"] for a in turn.activities if a["type"] == "message"] for turn in ours.turns]
    assert official_texts == our_texts
    assert ours.responses_per_prompt == [GROUNDED_TEXT, FALLBACK_TEXT]
    # the official client parsed the Claim entity too (position coerced to an int by its typed model)
    entity = answers[0][0].entities[0]
    assert [int(c["position"] if isinstance(c, dict) else c.position) for c in entity.citation] == [1, 2]
    # it sent its requests to the fake's routes, in the conversation the fake created
    assert [path.rsplit("/", 1)[-1] for _, path, _ in fake.requests[:2]] == [
        "conversations",
        greeting[0].conversation.id,
    ]


@pytest.mark.parametrize(
    ("cloud", "sdk_cloud"), [("prod", "PROD"), ("gov", "GOV"), ("mooncake", "MOONCAKE"), ("preprod", "PREPROD")]
)
def test_our_endpoint_url_matches_the_official_client(cloud, sdk_cloud):
    environment = "Aaaabbbb-1111-2222-3333-ccccddddeeee"
    settings = client.ConnectionSettings(
        environment_id=environment, agent_identifier="cr123_raybot", cloud=getattr(client.PowerPlatformCloud, sdk_cloud)
    )
    expected = client.PowerPlatformEnvironment.get_copilot_studio_connection_url(settings, cloud=settings.cloud).split(
        "?"
    )[0]
    ours = CopilotStudioTarget(environment_id=environment, schema_name="cr123_raybot", cloud=cloud, token_env="T")
    assert ours.conversations_url() == expected
