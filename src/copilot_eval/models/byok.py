"""Bring-your-own-key providers: an OpenAI-, Azure- or Anthropic-compatible endpoint.

The API key is read from an environment variable at session time; only the variable's name is
kept in the configuration, so the key itself never reaches evidence, logs or reports.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from copilot_eval.models.base import NamedModel
from copilot_eval.redaction import register_secret


class ByokProvider(BaseModel):
    """An endpoint serving the model, with the name of the env var that holds its key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["openai", "azure", "anthropic"] = "openai"
    base_url: str
    api_key_env: str | None = None
    wire_api: Literal["completions", "responses"] = "completions"
    transport: Literal["http", "websockets"] = "http"
    azure_api_version: str | None = None

    @field_validator("base_url")
    @classmethod
    def _absolute_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {value!r}")
        return value.rstrip("/")

    def session_provider(self) -> dict[str, Any]:
        """The SDK ``provider`` dict, with the key read from the environment now."""
        provider: dict[str, Any] = {"type": self.type, "base_url": self.base_url, "wire_api": self.wire_api}
        if self.transport != "http":
            provider["transport"] = self.transport
        if self.azure_api_version:
            provider["azure"] = {"api_version": self.azure_api_version}
        if self.api_key_env:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise ValueError(f"provider.api_key_env: environment variable {self.api_key_env} is not set")
            register_secret(key, self.api_key_env)  # before use: it may come back in an error body
            provider["api_key"] = key
        else:
            # Local servers (Ollama, llama.cpp) ignore the key, but the runtime wants one.
            provider["api_key"] = "no-key"
        return provider

    def safe_snapshot(self) -> dict[str, Any]:
        """What may be recorded as evidence: everything but the key."""
        return self.model_dump(exclude_none=True)


class ByokModel(NamedModel):
    """A model name served by a BYOK endpoint: a live model."""

    live = True

    def __init__(self, name: str, provider: ByokProvider) -> None:
        super().__init__(name)
        self.provider = provider

    @property
    def description(self) -> str:
        """Where the answers come from (the URL, never the key)."""
        return f"BYOK {self.provider.base_url}"

    def provider_config(self) -> dict[str, Any]:
        """The SDK ``provider`` dict, with the key read from the environment now."""
        return self.provider.session_provider()

    def endpoint(self, *, working_directory: str | None = None) -> None:
        """No in-process endpoint: requests go to the provider's URL."""
        return

    def __repr__(self) -> str:
        return f"ByokModel({self.name!r}, base_url={self.provider.base_url!r})"
