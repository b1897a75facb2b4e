"""Turn a CopilotEval into the SDK's session settings, and a safe snapshot of them for evidence.

The snapshot is taken from the settings actually supplied (after extra_config overrides),
not rebuilt later, and leaves out credentials, commands, arguments, environment variables and
handlers.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.agent.mcp_config import sdk_mcp_servers
from copilot_eval.models.choice import ModelChoice
from copilot_eval.redaction import register_server_secrets

__all__ = [
    "configuration_snapshot",
    "explain_session_error",
    "session_settings",
]

SECRET_PROVIDER_KEYS = {"api_key", "bearer_token", "api_key_command", "headers"}
MCP_HIDDEN_KEYS = {"command", "args", "env", "headers", "cwd"}


def session_settings(
    agent: CopilotEval, choice: ModelChoice, *, working_directory: str, config_directory: str, tools: list[Any]
) -> dict[str, Any]:
    """Keyword arguments for ``CopilotClient.create_session`` (handlers added by the runner)."""
    settings: dict[str, Any] = {
        "model": choice.model,
        "working_directory": working_directory,
        "config_directory": config_directory,
        "streaming": agent.streaming,
        # Each run has its own config directory, removed after the run, so the runtime's
        # cross-session store could only ever hold this one session. Left on, it kept about 0.33 MB
        # of runtime memory per session that disconnecting does not return, and cost about 25 ms
        # per session; off, the system prompt and the tools the model is offered are the same
        # (compared request by request) and the `sql` tool keeps its session database.
        # extra_config={"enable_session_store": True} turns it back on.
        "enable_session_store": False,
        # The runtime's internal product telemetry (not the OpenTelemetry trace, which stays on):
        # bookkeeping for GitHub's own analytics, about 15 % of the runtime's CPU per scripted
        # session (paired blocks, docs/cost.md) while the model is sent the same requests (the
        # benchmark's request-audit digest) and the same events and spans arrive. A test run is
        # not product use. extra_config={"enable_session_telemetry": True} turns it back on.
        "enable_session_telemetry": False,
    }
    if choice.provider is not None:
        settings["provider"] = choice.provider
    if agent.instructions:
        settings["system_message"] = {"mode": agent.system_message_mode, "content": agent.instructions}
    if agent.reasoning_effort:
        settings["reasoning_effort"] = agent.reasoning_effort
    if tools:
        settings["tools"] = tools
    if agent.allowed_tools is not None:
        names = list(agent.allowed_tools)
        settings["available_tools"] = names + [t.name for t in tools if t.name not in names]
    if agent.excluded_tools is not None:
        settings["excluded_tools"] = list(agent.excluded_tools)
    if agent.mcp_servers:
        settings["mcp_servers"] = sdk_mcp_servers(agent.mcp_servers)
    loaded = [custom for custom in agent.custom_agents if custom.skipped is None]
    if loaded:  # a file the runtime's own loader skips does not exist in production either
        settings["custom_agents"] = [custom.session_config() for custom in loaded]
    if agent.skill_directories:
        settings["skill_directories"] = [str(path) for path in agent.skill_directories]
    if agent.disabled_skills:
        settings["disabled_skills"] = list(agent.disabled_skills)
    if agent.max_ai_credits is not None:
        # The runtime keeps the count and asks the host when it is spent (session_limits_exhausted).
        # It also tells the model, in a user message of every request, what is left and to be frugal.
        settings["session_limits"] = {"max_ai_credits": agent.max_ai_credits}
    settings.update(agent.extra_config)
    # An MCP server gets its entry's env and headers; one that prints them sends them straight back.
    register_server_secrets(settings.get("mcp_servers") or {})
    for custom in settings.get("custom_agents") or []:
        register_server_secrets(custom.get("mcp_servers") or {} if isinstance(custom, dict) else {})
    return settings


def _safe(value: Any) -> Any:
    if callable(value):
        return None
    if isinstance(value, dict):
        return {key: _safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_safe(item) for item in value]
    return value


def configuration_snapshot(settings: dict[str, Any], choice: ModelChoice) -> dict[str, Any]:
    """A JSON-safe record of the supplied settings, without credentials, commands or handlers."""
    snapshot: dict[str, Any] = {}
    for key, value in settings.items():
        if key == "provider" and isinstance(value, dict):
            snapshot[key] = {k: v for k, v in value.items() if k not in SECRET_PROVIDER_KEYS}
        elif key == "mcp_servers" and isinstance(value, dict):
            snapshot[key] = {
                name: {k: v for k, v in cfg.items() if k not in MCP_HIDDEN_KEYS} for name, cfg in value.items()
            }
        elif key == "tools":
            snapshot[key] = [
                {"name": t.name, "description": t.description, "parameters": t.parameters, "metadata": t.metadata}
                for t in value
            ]
        elif key in ("hooks", "on_event", "on_permission_request", "github_token"):
            continue
        else:
            snapshot[key] = _safe(value)
    system = settings.get("system_message")
    snapshot["effective_system_prompt"] = system.get("content") if isinstance(system, dict) else None
    snapshot["model_source"] = choice.description
    return snapshot


def explain_session_error(choice: ModelChoice, message: str) -> str:
    """The runtime's error, with the fix added where the cause is known to be ours to explain."""
    if choice.provider is None and "No GitHub OAuth token" in message:
        return (
            f"{message} (a GitHub-hosted model needs a token with Copilot access in "
            "COPILOT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN, e.g. GH_TOKEN=$(gh auth token); "
            "or give a BYOK provider or a ScriptedModel)"
        )
    return message
