"""What the model sources answered in-process share: a name, a wire API and transport, a loopback server.

The ScriptedModel and the FunctionModel differ only in where an answer comes from (a script's
rules, a Python function); both check their wire settings the same way, give the session the same
never-dialled provider and serve the same loopback server. Replay speaks whatever was recorded, so
it builds its provider settings itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from copilot_eval.models.base import NamedModel
from copilot_eval.models.wire.provider import in_process_provider

if TYPE_CHECKING:
    from copilot_eval.models.wire.answering import AnsweringEndpoint
    from copilot_eval.models.wire.server import ScriptedServer

__all__ = ["InProcessModel", "Transport", "WireApi"]

WireApi = Literal["completions", "responses"]
Transport = Literal["http", "websockets"]


def _wire_problem(name: object, wire_api: object, transport: object) -> str | None:
    """What is wrong with an in-process model's name, wire API and transport, or None."""
    if wire_api not in ("completions", "responses"):
        return f"wire_api must be 'completions' or 'responses', got {wire_api!r}"
    if transport not in ("http", "websockets"):
        return f"transport must be 'http' or 'websockets', got {transport!r}"
    if transport == "websockets" and wire_api != "responses":
        return "transport 'websockets' needs wire_api 'responses'"
    if not isinstance(name, str) or not name:
        return "name must be a non-empty string"
    return None


class InProcessModel(NamedModel):
    """A model answered in-process through the SDK's request handler, on one wire API and transport."""

    __slots__ = ("transport", "wire_api")
    transport: Transport
    """`http` or `websockets` (Responses only)."""
    wire_api: WireApi
    """`completions` or `responses`."""

    live = False  # answers come from this process, never from a real model

    def __init__(
        self, name: str, wire_api: WireApi, transport: Transport, *, owner: str, error: type[ValueError] = ValueError
    ) -> None:
        problem = _wire_problem(name, wire_api, transport)
        if problem:
            raise error(f"{owner}: {problem}")
        super().__init__(name)
        object.__setattr__(self, "wire_api", wire_api)
        object.__setattr__(self, "transport", transport)

    def provider_config(self, *, base_url: str | None = None) -> dict[str, str]:
        """The session `provider` dict for this model; without base_url it is a never-dialled placeholder."""
        return in_process_provider(wire_api=self.wire_api, transport=self.transport, base_url=base_url)

    def endpoint(self, *, working_directory: str | None = None) -> AnsweringEndpoint:
        """Fresh per-run answering state, usable as the SDK's request handler."""
        raise NotImplementedError

    def serve(self, *, host: str = "127.0.0.1", port: int = 0, working_directory: str | None = None) -> ScriptedServer:
        """A loopback HTTP server for this model (`async with model.serve() as server: server.base_url`)."""
        # imported on use: the server loads the Copilot SDK and uvicorn; building a model must not
        from copilot_eval.models.wire.server import ScriptedServer

        return ScriptedServer(self.endpoint(working_directory=working_directory), host=host, port=port)
