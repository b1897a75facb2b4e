"""Handlers a user may hand the SDK through ``extra_config``: session hooks and listeners.

``extra_config`` goes to the SDK's session settings last. Most keys are values the SDK checks
itself; hooks and handlers are functions the runner must compose with its own (see
``runtime.session.hooks``), and a misspelt hook name would otherwise be dropped without a word by
the SDK, so they are checked here, when the agent is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["HANDLER_KEYS", "HOOK_TYPES", "extra_handler_problems"]

HOOK_TYPES: dict[str, str] = {
    "on_pre_tool_use": "preToolUse",
    "on_pre_mcp_tool_call": "preMcpToolCall",
    "on_post_tool_use": "postToolUse",
    "on_post_tool_use_failure": "postToolUseFailure",
    "on_user_prompt_submitted": "userPromptSubmitted",
    "on_user_prompt_transformed": "userPromptTransformed",
    "on_session_start": "sessionStart",
    "on_session_end": "sessionEnd",
    "on_error_occurred": "errorOccurred",
    "on_agent_stop": "agentStop",
    "on_subagent_start": "subagentStart",
    "on_subagent_stop": "subagentStop",
}
"""The SDK's ``SessionHooks`` keys (SDK 1.0.27), each with the runtime's name of its hook type."""

HANDLER_KEYS = (
    "on_event",
    "on_permission_request",
    "on_user_input_request",
    "on_elicitation_request",
    "on_mcp_auth_request",
    "on_exit_plan_mode_request",
    "on_auto_mode_switch_request",
)
"""``create_session`` handlers that ``extra_config`` may give: functions, checked to be callable."""


def extra_handler_problems(extra_config: Mapping[str, Any]) -> list[str]:
    """What is wrong with the hooks and handlers of an ``extra_config``, one line each."""
    problems = [
        f"extra_config.{key}: expected a function, got {type(extra_config[key]).__name__}"
        for key in HANDLER_KEYS
        if key in extra_config and not callable(extra_config[key])
    ]
    if "hooks" not in extra_config:
        return problems
    hooks = extra_config["hooks"]
    if not isinstance(hooks, Mapping):
        return [
            *problems,
            f"extra_config.hooks: expected a mapping of hook names to functions, got {type(hooks).__name__}",
        ]
    for key, handler in hooks.items():
        if key not in HOOK_TYPES:
            problems.append(f"extra_config.hooks.{key}: unknown hook (known: {', '.join(HOOK_TYPES)})")
        elif not callable(handler):
            problems.append(f"extra_config.hooks.{key}: expected a function, got {type(handler).__name__}")
    return problems
