"""GitHub-hosted Copilot models, used with the user's own login or a token from the environment."""

from __future__ import annotations

import os

TOKEN_ENV_VARS = ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN")


def github_token_from_env() -> str | None:
    """The first GitHub token found in the environment, or ``None`` to use the logged-in user."""
    for name in TOKEN_ENV_VARS:
        value = os.environ.get(name)
        if value:
            return value
    return None
