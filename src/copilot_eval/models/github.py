"""GitHub-hosted Copilot models, used with a token from the environment.

Runs use an isolated COPILOT_HOME each, so a login stored in the user's own ~/.copilot is not
visible to them; the token travels through the environment instead (and is never recorded).
"""

from __future__ import annotations

import os

from copilot_eval.models.base import NamedModel
from copilot_eval.redaction import GITHUB_TOKEN_VARIABLES, register_secret

TOKEN_ENV_VARS = GITHUB_TOKEN_VARIABLES  # the redactor registers them whatever the model; read here in that order


def github_token_from_env() -> str | None:
    """The first GitHub token found in the environment, or ``None`` (the runtime then finds none)."""
    for name in TOKEN_ENV_VARS:
        value = os.environ.get(name)
        if value:
            register_secret(value, name)  # handed to the runtime, so it may come back in its errors
            return value
    return None


class GitHubModel(NamedModel):
    """A GitHub-hosted Copilot model by name: a live model, answered by GitHub with the token from the environment."""

    live = True

    @property
    def description(self) -> str:
        """Where the answers come from."""
        return "GitHub-hosted"

    def provider_config(self) -> None:
        """GitHub-hosted models need no provider settings."""
        return

    def endpoint(self, *, working_directory: str | None = None) -> None:
        """No in-process endpoint: requests go to GitHub."""
        return

    def github_token(self) -> str | None:
        """The token the runtime is started with (read from the environment now, never recorded)."""
        return github_token_from_env()

    def __repr__(self) -> str:
        return f"GitHubModel({self.name!r})"
