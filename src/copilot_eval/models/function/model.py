"""FunctionModel: a test double whose answers come from a Python function of the request.

The function gets the conversation as chat-style messages and the tools offered, and returns
text, a tool call or several, or text and calls together in one message. It is answered through the same wire renderers as the
ScriptedModel, so chat completions and Responses (HTTP or WebSocket, streamed or not) all work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from copilot_eval.models.in_process import InProcessModel, Transport, WireApi

if TYPE_CHECKING:
    from copilot_eval.models.function.endpoint import FunctionEndpoint

__all__ = ["FunctionModel"]


AnswerFn = Callable[[list[dict[str, Any]], list[dict[str, Any]]], Any]


class FunctionModel(InProcessModel):
    """A model answered by ``fn(messages, tools)`` (sync or async): it returns text, a CallTool, or a
    list of both (text and calls in one message, as real models answer)."""

    def __init__(
        self,
        fn: AnswerFn,
        *,
        name: str = "function-model",
        wire_api: WireApi = "completions",
        transport: Transport = "http",
    ) -> None:
        if not callable(fn):
            raise TypeError(f"FunctionModel: fn must be callable, got {type(fn).__name__}")
        super().__init__(name, wire_api, transport, owner="FunctionModel")
        self.fn = fn

    @property
    def description(self) -> str:
        """Where the answers come from."""
        return f"function ({getattr(self.fn, '__qualname__', type(self.fn).__name__)})"

    def endpoint(self, *, working_directory: str | None = None) -> FunctionEndpoint:
        """Fresh per-run answering state, usable as the SDK's request handler."""
        # imported on use: the endpoint loads the Copilot SDK (about 0.6 s); building a model must not
        from copilot_eval.models.function.endpoint import FunctionEndpoint

        return FunctionEndpoint(self.fn, model_name=self.name)

    def __repr__(self) -> str:
        return f"FunctionModel({self.description}, name={self.name!r}, wire_api={self.wire_api!r})"
