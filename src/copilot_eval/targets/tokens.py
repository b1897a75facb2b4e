"""User-delegated tokens for the Agents SDK endpoint: from an env var, or from the MSAL token cache.

``copilot-eval login`` signs in once with the device-code flow and leaves a token cache (a
refresh token) in the tool's home folder; later runs, CI included, get fresh access tokens from it
silently. ``msal`` is imported only here and only when the cache is used.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from copilot_eval.cache_root import cache_root
from copilot_eval.targets.config import CLOUD_API_HOSTS, CopilotStudioTarget

CACHE_ENV = "COPILOT_EVAL_TOKEN_CACHE"


class TokenError(RuntimeError):
    """No token could be had; the message says what to set or run."""


def token_cache_path() -> Path:
    """Where ``copilot-eval login`` keeps the MSAL cache (env ``COPILOT_EVAL_TOKEN_CACHE`` overrides)."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured).expanduser() if configured else cache_root() / "msal-token-cache.json"


def scope_for(cloud: str) -> str:
    """The Power Platform API scope a Copilot Studio conversation needs in ``cloud``."""
    return f"https://{CLOUD_API_HOSTS[cloud]}/.default"


def public_client(client_id: str, tenant_id: str | None, cache_path: Path) -> tuple[Any, Any]:
    """An MSAL public client application bound to the serialised token cache at ``cache_path``."""
    try:
        import msal
    except ImportError as exc:  # pragma: no cover - msal is a declared dependency
        raise TokenError("the msal package is needed for `copilot-eval login` tokens: pip install msal") from exc
    cache = msal.SerializableTokenCache()
    if cache_path.is_file():
        cache.deserialize(cache_path.read_text(encoding="utf-8"))
    authority = f"https://login.microsoftonline.com/{tenant_id or 'organizations'}"
    return msal.PublicClientApplication(client_id, authority=authority, token_cache=cache), cache


def save_cache(cache: Any, cache_path: Path) -> None:
    """Write the MSAL cache if it changed, readable by the owner only (it holds a refresh token)."""
    if not cache.has_state_changed:
        return
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(cache_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(cache.serialize())


def token_source(config: CopilotStudioTarget) -> Callable[[], str]:
    """A function returning a current access token for ``config``; raises TokenError naming the fix."""
    if config.token_env:
        name = config.token_env

        def from_env() -> str:
            value = os.environ.get(name)
            if not value:
                raise TokenError(
                    f"environment variable {name} (target.token_env) is not set: it must hold a "
                    "user-delegated token for the Power Platform API"
                )
            return value

        return from_env

    def from_cache() -> str:
        path = token_cache_path()
        if not path.is_file():
            raise TokenError(f"no token cache at {path}: run `copilot-eval login --agent AGENT.yaml` once")
        try:
            app, cache = public_client(config.client_id or "", config.tenant_id, path)
            accounts = app.get_accounts()
            result = app.acquire_token_silent([scope_for(config.cloud)], account=accounts[0]) if accounts else None
            save_cache(cache, path)
        except TokenError:
            raise
        except Exception as exc:
            raise TokenError(f"could not get a token from the cache {path}: {type(exc).__name__}: {exc}") from None
        if not result or "access_token" not in result:
            raise TokenError(
                f"no cached sign-in for client {config.client_id} in {path}: run "
                "`copilot-eval login --agent AGENT.yaml` once"
            )
        return str(result["access_token"])

    return from_cache


__all__ = ["CACHE_ENV", "TokenError", "public_client", "save_cache", "scope_for", "token_cache_path", "token_source"]
