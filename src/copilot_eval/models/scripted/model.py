"""ScriptedModel: a deterministic model that answers the Copilot runtime from a script."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from copilot_eval.models.in_process import InProcessModel, Transport, WireApi

from .script import InvalidScriptError, Rule, load_script, parse_rules

if TYPE_CHECKING:
    from .endpoint import ScriptedEndpoint

__all__ = ["ScriptedModel"]


class ScriptedModel(InProcessModel):
    """An immutable script of rules; `endpoint()` and `serve()` make the per-run answering state."""

    __slots__ = ("_rules", "_source")
    _rules: tuple[Rule, ...]
    _source: str | None

    def __init__(
        self,
        rules: Iterable[Rule | Mapping[str, Any]],
        *,
        name: str = "scripted-model",
        wire_api: WireApi = "completions",
        transport: Transport = "http",
        source: str | None = None,
    ) -> None:
        super().__init__(name, wire_api, transport, owner=source or "ScriptedModel", error=InvalidScriptError)
        object.__setattr__(self, "_rules", parse_rules(list(rules), source=source))
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
    def description(self) -> str:
        """Where the answers come from (recorded in the configuration snapshot)."""
        return f"scripted ({self.name})"

    def endpoint(self, *, working_directory: str | None = None) -> ScriptedEndpoint:
        """Fresh per-run answering state, usable as the SDK's request handler."""
        # imported on use: the endpoint loads the Copilot SDK (about 0.6 s); building a model must not
        from .endpoint import ScriptedEndpoint

        return ScriptedEndpoint(self._rules, model_name=self.name, working_directory=working_directory)

    def __repr__(self) -> str:
        return f"ScriptedModel(name={self.name!r}, rules={len(self._rules)}, wire_api={self.wire_api!r})"
