"""The model boundary: what every source of model answers tells a session, and the one place a model is chosen.

A model source is anything ``CopilotEval(model=...)`` accepts besides a model name: it names the
model the session asks for, gives the session's ``provider`` settings, and may hand out a per-run
request handler that answers in-process (the ScriptedModel, the FunctionModel, a Replay). Model
names are resolved here too: with a BYOK provider to a ``ByokModel``, without one to a
``GitHubModel``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from copilot import CopilotRequestHandler

__all__ = ["AgentConfigError", "EndpointFactory", "ModelChoice", "ModelSource", "as_model_source", "choose_model"]

EndpointFactory = Callable[..., "CopilotRequestHandler | None"]


class AgentConfigError(ValueError):
    """The agent cannot be run as configured; the message names the field."""


@runtime_checkable
class ModelSource(Protocol):
    """Where a session's model answers come from."""

    live: bool
    """True when answers come from a real model (GitHub-hosted, BYOK, or a recorder in front of one)."""

    @property
    def session_model(self) -> str:
        """The model name the session asks for (``create_session(model=...)``)."""

    def provider_config(self) -> dict[str, Any] | None:
        """The session's ``provider`` settings; None for GitHub-hosted models."""

    def endpoint(self, *, working_directory: str | None = None) -> CopilotRequestHandler | None:
        """A fresh per-run request handler answering in-process, or None to let requests reach the real model."""


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
            from copilot_eval.models.byok import ByokModel

            return ByokModel(model, provider)
        from copilot_eval.models.github import GitHubModel

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
    from copilot_eval.models.guard import check_live_allowed

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


def describe(source: ModelSource) -> str:
    """Where the answers come from, in a few words (recorded in the configuration snapshot)."""
    description = getattr(source, "description", None)
    if isinstance(description, str) and description:
        return description
    return f"{type(source).__name__} ({source.session_model})"


def _github_token(source: ModelSource) -> str | None:
    from copilot_eval.models.github import GitHubModel

    return source.github_token() if isinstance(source, GitHubModel) else None
