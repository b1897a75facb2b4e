"""Where the Power Platform API token comes from: an environment variable, or `copilot-eval login`.

The evaluation API takes only user-delegated tokens (there is no app-only path). ``--token-env VAR``
names a variable holding one; otherwise the MSAL cache that ``copilot-eval login --client-id ID``
filled gives fresh tokens silently (the same cache the Agents SDK targets use). The client
registers every token it gets with the redactor before using it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from copilot_eval.studio_eval.errors import READ_PERMISSION, WRITE_PERMISSION, StudioTokenError
from copilot_eval.targets.tokens import public_client, save_cache, token_cache_path


def scope_for_api(api_url: str) -> str:
    """The ``.default`` scope of the Power Platform API at ``api_url`` (its origin)."""
    parts = urlsplit(api_url)
    return f"{parts.scheme}://{parts.netloc}/.default"


def token_from_env(name: str) -> Callable[[], str]:
    """A token provider reading the variable ``name`` when asked; StudioTokenError when it is unset."""

    def read() -> str:
        value = os.environ.get(name, "").strip()
        if not value:
            raise StudioTokenError(
                f"environment variable {name} (--token-env) is not set",
                hint=f"it must hold a user-delegated token for the Power Platform API with {READ_PERMISSION} "
                f"({WRITE_PERMISSION} to start runs)",
            )
        return value

    return read


def token_from_login(*, client_id: str, tenant_id: str | None, api_url: str) -> Callable[[], Awaitable[str]]:
    """A token provider using the MSAL cache of `copilot-eval login --client-id` (refreshed silently)."""
    scope = scope_for_api(api_url)
    login = f"copilot-eval login --client-id {client_id}" + (f" --tenant-id {tenant_id}" if tenant_id else "")

    def acquire() -> str:
        path = token_cache_path()
        if not path.is_file():
            raise StudioTokenError(f"no token cache at {path}", hint=f"run `{login}` once, or pass --token-env VAR")
        try:
            app, cache = public_client(client_id, tenant_id, path)
            accounts = app.get_accounts()
            result = app.acquire_token_silent([scope], account=accounts[0]) if accounts else None
            save_cache(cache, path)
        except Exception as exc:
            raise StudioTokenError(
                f"could not get a token from the cache {path}: {type(exc).__name__}: {exc}"
            ) from None
        if not result or "access_token" not in result:
            raise StudioTokenError(
                f"no cached sign-in for client {client_id} and scope {scope} in {path}", hint=f"run `{login}` once"
            )
        return str(result["access_token"])

    async def provide() -> str:
        return await asyncio.to_thread(acquire)  # MSAL may refresh over the network: keep the loop free

    return provide


__all__ = ["scope_for_api", "token_from_env", "token_from_login"]
