"""The model boundary: what every source of model answers tells a session.

A model source is anything ``CopilotEval(model=...)`` accepts besides a model name: it names the
model the session asks for, gives the session's ``provider`` settings, and may hand out a per-run
request handler that answers in-process (the ScriptedModel, the FunctionModel, a Replay). Which
source a session uses is decided in ``choice``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from copilot import CopilotRequestHandler

__all__ = ["AgentConfigError", "EndpointFactory", "ModelSource", "NamedModel", "describe"]

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


class NamedModel:
    """A model source known by one name, which is also the model its sessions ask for."""

    __slots__ = ("name",)
    name: str
    """The model name the runtime sends and receives."""

    def __init__(self, name: str) -> None:
        # object.__setattr__: the ScriptedModel refuses attribute assignment once built
        object.__setattr__(self, "name", name)

    @property
    def session_model(self) -> str:
        """The model name the session asks for (``create_session(model=...)``)."""
        return self.name


def describe(source: ModelSource) -> str:
    """Where the answers come from, in a few words (recorded in the configuration snapshot)."""
    description = getattr(source, "description", None)
    if isinstance(description, str) and description:
        return description
    return f"{type(source).__name__} ({source.session_model})"
