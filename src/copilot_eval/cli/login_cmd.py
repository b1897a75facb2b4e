"""`copilot-eval login --agent AGENT.yaml`: sign in once (device code) for Copilot Studio's Agents SDK endpoint.

The agent file's ``target`` (type ``copilot-studio``) names the app registration (``client_id``,
``tenant_id``) and the cloud. The sign-in is kept in an MSAL token cache in the tool's home folder
(owner-readable only); runs then get fresh access tokens from it without a prompt. No token is
printed. Exit codes: 0 signed in, 2 bad input, 1 the sign-in failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def login(
    agent_path: Annotated[Path, typer.Option("--agent", help="Agent file whose target is type copilot-studio.")],
) -> None:
    """Sign in with a device code and cache the tokens a Copilot Studio target needs."""
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.targets.agent import load_target_agent_file
    from copilot_eval.targets.config import CopilotStudioTarget, TargetConfigError
    from copilot_eval.targets.tokens import TokenError, public_client, save_cache, scope_for, token_cache_path

    try:
        agent = load_target_agent_file(agent_path)
    except TargetConfigError as exc:
        typer.echo(f"error: --agent {agent_path}: {exc}", err=True)
        raise typer.Exit(2) from None
    target = agent.target
    if not isinstance(target, CopilotStudioTarget) or not target.client_id:
        typer.echo(
            f"error: --agent {agent_path}: login is for targets of type copilot-studio with a client_id "
            "(Direct Line needs no sign-in; a token_env target brings its own token)",
            err=True,
        )
        raise typer.Exit(2)
    path = token_cache_path()
    try:
        app, cache = public_client(target.client_id, target.tenant_id, path)
        flow = app.initiate_device_flow(scopes=[scope_for(target.cloud)])
        if "user_code" not in flow:
            raise TokenError(f"the device-code flow could not start: {flow.get('error_description') or flow}")
        typer.echo(flow["message"])  # where to go and which code to type; holds no token
        result = app.acquire_token_by_device_flow(flow)
        if "access_token" not in result:
            raise TokenError(f"sign-in failed: {result.get('error')}: {result.get('error_description')}")
        save_cache(cache, path)
    except TokenError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    account = (result.get("id_token_claims") or {}).get("preferred_username", "the account")
    typer.echo(f"signed in as {account}; token cache: {path}")


def register(app: typer.Typer) -> None:
    """Add the `login` command."""
    app.command(name="login")(login)
