"""Shared builders for target tests: a Raybot-like fake agent script and agents pointed at fakes."""

from __future__ import annotations

from copilot_eval.targets import CopilotStudioTarget, DirectLineTarget, StudioAgent
from copilot_eval.testing import FakeAgent, grounded

RAY_DOCS = [
    ("https://docs.ray.io/en/latest/ray-core/tasks.html", "Ray Tasks"),
    ("https://docs.ray.io/en/latest/ray-core/actors.html", "Ray Actors"),
]
GROUNDED_TEXT = "Ray tasks are stateless remote functions [1]; actors keep state [2]."


def ray_agent(**rules: object) -> FakeAgent:
    """A fake agent that answers 'tasks' questions with two citations, plus extra rules by keyword."""
    agent = FakeAgent(rules=[("tasks", grounded(GROUNDED_TEXT, RAY_DOCS))])
    agent.rules[:0] = list(rules.items())  # type: ignore[arg-type]
    return agent


def directline_agent(fake, *, timeout_s: float = 5.0, **fields) -> StudioAgent:
    """A StudioAgent reaching ``fake`` (FakeDirectLine) through its token endpoint, with fast polling."""
    settings = {"token_endpoint": fake.token_endpoint, "quiet_s": 0.25, "poll_interval_s": 0.05, **fields}
    return StudioAgent(target=DirectLineTarget(**settings), name="dl-agent", timeout_s=timeout_s)


def sdk_agent(fake, *, timeout_s: float = 5.0, token_env: str = "FAKE_PP_TOKEN", **fields) -> StudioAgent:
    """A StudioAgent reaching ``fake`` (FakeAgentsSdk) by its direct-connect URL, token from an env var."""
    target = CopilotStudioTarget(direct_connect_url=fake.direct_connect_url, token_env=token_env, **fields)
    return StudioAgent(target=target, name="sdk-agent", timeout_s=timeout_s)
