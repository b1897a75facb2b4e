"""Helpers for the evidence tests: inline scripted models whose per-run endpoints stay visible."""

from __future__ import annotations

from typing import Any

from copilot_eval import ScriptedModel


def scripted(*rules: dict, **options: Any) -> ScriptedModel:
    """A ScriptedModel from rules written inline."""
    return ScriptedModel.from_dict({"rules": list(rules)}, **options)


class Watched:
    """Stands in for a ScriptedModel and keeps every endpoint it hands out (to read ``.calls``)."""

    live = False

    def __init__(self, model: ScriptedModel, provider: dict[str, Any] | None = None) -> None:
        self.model = model
        self.endpoints: list[Any] = []
        self._provider = provider

    @property
    def session_model(self) -> str:
        """The wrapped model's session name."""
        return self.model.session_model

    def provider_config(self, **options: Any) -> dict[str, Any]:
        """The wrapped model's provider, or the override given."""
        return dict(self._provider) if self._provider else self.model.provider_config(**options)

    def endpoint(self, **options: Any) -> Any:
        """A fresh endpoint, remembered."""
        endpoint = self.model.endpoint(**options)
        self.endpoints.append(endpoint)
        return endpoint

    @property
    def calls(self) -> list[Any]:
        """Every model call any of this model's endpoints answered."""
        return [call for endpoint in self.endpoints for call in endpoint.calls]
