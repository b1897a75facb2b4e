"""GitHub-hosted Copilot models, used with a token from the environment.

Runs use an isolated COPILOT_HOME each, so a login stored in the user's own ~/.copilot is not
visible to them; the token travels through the environment instead (and is never recorded).
"""

from __future__ import annotations

import os

from copilot_eval.redaction import register_secret

TOKEN_ENV_VARS = ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN")


def github_token_from_env() -> str | None:
    """The first GitHub token found in the environment, or ``None`` (the runtime then finds none)."""
    for name in TOKEN_ENV_VARS:
        value = os.environ.get(name)
        if value:
            register_secret(value, name)  # handed to the runtime, so it may come back in its errors
            return value
    return None
