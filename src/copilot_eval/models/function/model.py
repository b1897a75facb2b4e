"""FunctionModel: a test double whose answers come from a Python function of the request.

The function gets the conversation as chat-style messages and the tools offered, and returns
text, a tool call or several, or text and calls together in one message. It is answered through the same wire renderers as the
ScriptedModel, so chat completions and Responses (HTTP or WebSocket, streamed or not) all work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from copilot_eval.models.wire.provider import in_process_provider

if TYPE_CHECKING:
    from copilot_eval.models.function.endpoint import FunctionEndpoint
    from copilot_eval.models.wire.server import ScriptedServer

__all__ = ["FunctionModel"]


AnswerFn = Callable[[list[dict[str, Any]], list[dict[str, Any]]], Any]


class FunctionModel:
    """A model answered by ``fn(messages, tools)`` (sync or async): it returns text, a CallTool, or a
    list of both (text and calls in one message, as real models answer)."""

    live = False  # answers come from the function, never from a real model

    def __init__(
        self,
        fn: AnswerFn,
        *,
        name: str = "function-model",
        wire_api: Literal["completions", "responses"] = "completions",
        transport: Literal["http", "websockets"] = "http",
    ) -> None:
        if not callable(fn):
            raise TypeError(f"FunctionModel: fn must be callable, got {type(fn).__name__}")
        if wire_api not in ("completions", "responses"):
            raise ValueError(f"FunctionModel: wire_api must be 'completions' or 'responses', got {wire_api!r}")
        if transport not in ("http", "websockets") or (transport == "websockets" and wire_api != "responses"):
            raise ValueError(
                f"FunctionModel: transport must be 'http', or 'websockets' with wire_api 'responses'; got {transport!r}"
            )
        if not isinstance(name, str) or not name:
            raise ValueError("FunctionModel: name must be a non-empty string")
        self.fn = fn
        self.name = name
        self.wire_api = wire_api
        self.transport = transport

    @property
    def session_model(self) -> str:
        """The model name the session asks for."""
        return self.name

    @property
    def description(self) -> str:
        """Where the answers come from."""
        return f"function ({getattr(self.fn, '__qualname__', type(self.fn).__name__)})"

    def provider_config(self, *, base_url: str | None = None) -> dict[str, str]:
        """The session `provider` dict; without base_url it is a never-dialled placeholder."""
        return in_process_provider(wire_api=self.wire_api, transport=self.transport, base_url=base_url)

    def endpoint(self, *, working_directory: str | None = None) -> FunctionEndpoint:
        """Fresh per-run answering state, usable as the SDK's request handler."""
        # imported on use: the endpoint loads the Copilot SDK (about 0.6 s); building a model must not
        from copilot_eval.models.function.endpoint import FunctionEndpoint

        return FunctionEndpoint(self.fn, model_name=self.name)

    def serve(self, *, host: str = "127.0.0.1", port: int = 0, working_directory: str | None = None) -> ScriptedServer:
        """A loopback HTTP server answering with this function (``async with model.serve() as server``)."""
        # imported on use: the server loads the Copilot SDK and uvicorn; building a model must not
        from copilot_eval.models.wire.server import ScriptedServer

        return ScriptedServer(self.endpoint(working_directory=working_directory), host=host, port=port)

    def __repr__(self) -> str:
        return f"FunctionModel({self.description}, name={self.name!r}, wire_api={self.wire_api!r})"
