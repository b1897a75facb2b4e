"""The one place a session's model is chosen: a model name or a model source, checked against the live-model switch.

Model names resolve here: with a BYOK provider to a ``ByokModel``, without one to a
``GitHubModel``. A live model is refused while live models are forbidden (``guard``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from copilot_eval.models.base import AgentConfigError, EndpointFactory, ModelSource, describe
from copilot_eval.models.byok import ByokModel
from copilot_eval.models.github import GitHubModel
from copilot_eval.models.guard import check_live_allowed

__all__ = ["ModelChoice", "as_model_source", "choose_model"]


@dataclass
class ModelChoice:
    """Which model a session uses and who answers it."""

    model: str
    provider: dict[str, Any] | None
    endpoint_factory: EndpointFactory | None = None  # None: requests go to the real endpoint
    github_token: str | None = None
    description: str = ""
    source: ModelSource | None = None


def as_model_source(model: Any, provider: Any = None) -> ModelSource:
    """The model source for a model name (with an optional BYOK provider) or a model source itself."""
    if isinstance(model, str):
        if provider is not None:
            return ByokModel(model, provider)
        return GitHubModel(model)
    if isinstance(model, ModelSource):
        return model
    raise AgentConfigError(
        f"model: must be a model name or a model source (ScriptedModel, FunctionModel, Replay, "
        f"Recorder), got {type(model).__name__}"
    )


def choose_model(agent: Any, default_model: Any = None, default_provider: Any = None) -> ModelChoice:
    """Resolve the agent's model (or the defaults) to a model name, provider and endpoint.

    Refuses a live model while live models are forbidden (``--copilot-no-live-models`` /
    ``COPILOT_EVAL_NO_LIVE_MODELS=1``).
    """
    model = agent.model if agent.model is not None else default_model
    provider = agent.provider if agent.provider is not None else default_provider
    if model is None:
        raise AgentConfigError(
            "model: no model given; set CopilotEval(model=...), pass --copilot-model to pytest, "
            "or set COPILOT_EVAL_MODEL"
        )
    source = as_model_source(model, provider)
    check_live_allowed(source, agent_name=getattr(agent, "name", "agent"))
    try:
        provider_config = source.provider_config()
    except ValueError as error:
        raise AgentConfigError(str(error)) from None
    return ModelChoice(
        model=source.session_model,
        provider=provider_config,
        endpoint_factory=source.endpoint,
        github_token=_github_token(source),
        description=describe(source),
        source=source,
    )


def _github_token(source: ModelSource) -> str | None:
    return source.github_token() if isinstance(source, GitHubModel) else None
