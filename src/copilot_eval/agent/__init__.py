"""The agent under test: its configuration and the files it can be loaded from."""

from copilot_eval.agent.agent_file import AgentFileError
from copilot_eval.agent.config import CopilotEval, load_agent_file
from copilot_eval.agent.custom_agent import CustomAgent

__all__ = ["AgentFileError", "CopilotEval", "CustomAgent", "load_agent_file"]
