"""Copilot Studio agents as targets: Direct Line 3.0 and the Agents SDK endpoint, with per-turn evidence.

A target answers a test set like a Copilot runtime agent does; ``runs`` plays it through
``StudioAgent.play`` and graders read the same ``responses_per_prompt``.
"""

from copilot_eval.targets.agent import StudioAgent, is_target_file, load_target_agent_file
from copilot_eval.targets.config import CopilotStudioTarget, DirectLineTarget, TargetConfigError, parse_target
from copilot_eval.targets.evidence import Attachment, Citation, HttpExchange, TargetResult, TargetTurn

__all__ = [
    "Attachment",
    "Citation",
    "CopilotStudioTarget",
    "DirectLineTarget",
    "HttpExchange",
    "StudioAgent",
    "TargetConfigError",
    "TargetResult",
    "TargetTurn",
    "is_target_file",
    "load_target_agent_file",
    "parse_target",
]
