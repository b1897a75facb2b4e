"""How an MCP server's request for LLM sampling is answered: declined, a function, or a model.

Runtime 1.0.102 offers every MCP server the sampling capability and waits for the host to answer
each ``sampling/createMessage`` request; unanswered, the call stalled for about 60 s. So a request
is always answered at once: declined (the default: the runtime then tells the server ``The user
cancelled the request.``), by a function ``fn(request: SamplingRequest)`` returning the text (or
``None`` to decline), or by a model source of your choice (``ScriptedModel``, ``FunctionModel``,
or a BYOK model: ``ByokModel(name, ByokProvider(...))``), sent the request's messages as a chat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copilot_eval.models.base import ModelSource

DECLINE = "decline"


def parse_sampling(value: Any) -> Any:
    """The ``sampling`` field: ``"decline"``, a function, or a model source; ValueError otherwise."""
    if value == DECLINE or value is None:
        return DECLINE
    if isinstance(value, ModelSource):
        if getattr(value, "live", False) and type(value).__name__ == "GitHubModel":
            raise ValueError(
                "a GitHub-hosted model cannot answer sampling; give a ScriptedModel, FunctionModel or BYOK model"
            )
        return value
    if callable(value):
        return value
    raise ValueError(
        f"expected 'decline', a function of the request, or a model source (ScriptedModel, FunctionModel, "
        f"ByokModel), got {type(value).__name__}"
    )


SamplingPolicy = str | Callable[..., Any] | Any

__all__ = ["DECLINE", "SamplingPolicy", "parse_sampling"]
