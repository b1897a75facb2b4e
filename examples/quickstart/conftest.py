"""Fixtures for the quickstart suite: the agent from agent.yaml, or the same agent on a real model."""

from pathlib import Path

import pytest

from copilot_eval import CopilotEval

HERE = Path(__file__).parent


@pytest.fixture
def agent(pytestconfig: pytest.Config) -> CopilotEval:
    """The bike-shop agent; with --copilot-model it runs on that model instead of the script."""
    agent = CopilotEval.from_file(HERE / "agent.yaml")
    if pytestconfig.getoption("--copilot-model"):
        agent = agent.with_options(model=None)  # None: use the model given on the command line
    return agent
