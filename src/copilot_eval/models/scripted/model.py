"""ScriptedModel: a deterministic model that answers the Copilot runtime from a script."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from copilot_eval.models.wire.provider import in_process_provider

from .script import InvalidScriptError, Rule, load_script, parse_rules

if TYPE_CHECKING:
    from copilot_eval.models.wire.server import ScriptedServer

    from .endpoint import ScriptedEndpoint

__all__ = ["ScriptedModel"]

WireApi = Literal["completions", "responses"]
Transport = Literal["http", "websockets"]


class ScriptedModel:
    """An immutable script of rules; `endpoint()` and `serve()` make the per-run answering state."""

    live = False  # answers come from the script, never from a real model

    __slots__ = ("_name", "_rules", "_source", "_transport", "_wire_api")
    _name: str
    _rules: tuple[Rule, ...]
    _source: str | None
    _transport: Transport
    _wire_api: WireApi

    def __init__(
        self,
        rules: Iterable[Rule | Mapping[str, Any]],
        *,
        name: str = "scripted-model",
        wire_api: WireApi = "completions",
        transport: Transport = "http",
        source: str | None = None,
    ) -> None:
        if wire_api not in ("completions", "responses"):
            raise InvalidScriptError(
                f"{source or 'ScriptedModel'}: wire_api must be 'completions' or 'responses', got {wire_api!r}"
            )
        if transport not in ("http", "websockets"):
            raise InvalidScriptError(
                f"{source or 'ScriptedModel'}: transport must be 'http' or 'websockets', got {transport!r}"
            )
        if transport == "websockets" and wire_api != "responses":
            raise InvalidScriptError(f"{source or 'ScriptedModel'}: transport 'websockets' needs wire_api 'responses'")
        if not isinstance(name, str) or not name:
            raise InvalidScriptError(f"{source or 'ScriptedModel'}: name must be a non-empty string")
        object.__setattr__(self, "_rules", parse_rules(list(rules), source=source))
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_wire_api", wire_api)
        object.__setattr__(self, "_transport", transport)
        object.__setattr__(self, "_source", source)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("ScriptedModel is immutable")

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        *,
        name: str = "scripted-model",
        wire_api: WireApi = "completions",
        transport: Transport = "http",
    ) -> ScriptedModel:
        """Load a script from YAML or JSON; a malformed script fails here, naming rule, turn and field."""
        return cls(load_script(path), name=name, wire_api=wire_api, transport=transport, source=str(path))

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any] | list[Any],
        *,
        source: str | None = None,
        name: str = "scripted-model",
        wire_api: WireApi = "completions",
        transport: Transport = "http",
    ) -> ScriptedModel:
        """Build from already-parsed data (`{"rules": [...]}` or a list of rules)."""
        return cls(parse_rules(data, source=source), name=name, wire_api=wire_api, transport=transport, source=source)

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The parsed rules, in match order."""
        return self._rules

    @property
    def name(self) -> str:
        """The model name the runtime sends and receives."""
        return self._name

    @property
    def session_model(self) -> str:
        """The value to pass as `create_session(model=...)`."""
        return self._name

    @property
    def description(self) -> str:
        """Where the answers come from (recorded in the configuration snapshot)."""
        return f"scripted ({self._name})"

    @property
    def wire_api(self) -> str:
        """`completions` or `responses`."""
        return self._wire_api

    @property
    def transport(self) -> str:
        """`http` or `websockets` (Responses only)."""
        return self._transport

    def provider_config(self, *, base_url: str | None = None) -> dict[str, str]:
        """The session `provider` dict for this model; without base_url it is a never-dialled placeholder."""
        return in_process_provider(wire_api=self._wire_api, transport=self._transport, base_url=base_url)

    def endpoint(self, *, working_directory: str | None = None) -> ScriptedEndpoint:
        """Fresh per-run answering state, usable as the SDK's request handler."""
        # imported on use: the endpoint loads the Copilot SDK (about 0.6 s); building a model must not
        from .endpoint import ScriptedEndpoint

        return ScriptedEndpoint(self._rules, model_name=self._name, working_directory=working_directory)

    def serve(self, *, host: str = "127.0.0.1", port: int = 0, working_directory: str | None = None) -> ScriptedServer:
        """A loopback HTTP server for this model (`async with model.serve() as server: server.base_url`)."""
        # imported on use: the server loads the Copilot SDK and uvicorn; building a model must not
        from copilot_eval.models.wire.server import ScriptedServer

        return ScriptedServer(self.endpoint(working_directory=working_directory), host=host, port=port)

    def __repr__(self) -> str:
        return f"ScriptedModel(name={self._name!r}, rules={len(self._rules)}, wire_api={self._wire_api!r})"
