"""`copilot-eval login --agent AGENT.yaml | --client-id ID`: sign in once (device code) for the Power Platform API.

The agent file's ``target`` (type ``copilot-studio``) names the app registration (``client_id``,
``tenant_id``) and the cloud; ``--client-id`` (with ``--tenant-id``, ``--cloud``) names them directly,
for ``copilot-eval studio-eval``, which has no agent file. Both sign in for the same resource, so one
cache serves the Agents SDK endpoint and the evaluation API. The sign-in is kept in an MSAL token cache in the tool's home folder
(owner-readable only); runs then get fresh access tokens from it without a prompt. No token is
printed. Exit codes (``copilot_eval.exit_codes``): 0 signed in, 2 unusable input, 3 the sign-in failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input, platform_failed
from copilot_eval.cli.options import ClientIdOption, TenantOption
from copilot_eval.targets.agent import load_target_agent_file
from copilot_eval.targets.config import CLOUD_API_HOSTS, CopilotStudioTarget, DirectLineTarget, TargetConfigError
from copilot_eval.targets.tokens import TokenError, public_client, save_cache, scope_for, token_cache_path


def login(
    agent_path: Annotated[
        Path | None, typer.Option("--agent", help="Agent file whose target is type copilot-studio.")
    ] = None,
    client_id: ClientIdOption = None,
    tenant_id: TenantOption = None,
    cloud: Annotated[
        str, typer.Option("--cloud", help="With --client-id: prod, gov, high, dod, mooncake ...")
    ] = "prod",
) -> None:
    """Sign in with a device code and cache the tokens a Copilot Studio target or `studio-eval` needs."""
    if (agent_path is None) == (client_id is None):
        raise bad_input(
            "give --agent AGENT.yaml (a copilot-studio target) or --client-id ID (for `copilot-eval "
            "studio-eval`), one of the two"
        )
    target: CopilotStudioTarget | DirectLineTarget
    if client_id is not None:
        if cloud not in CLOUD_API_HOSTS:
            raise bad_input(f"--cloud {cloud!r}: expected one of {', '.join(sorted(CLOUD_API_HOSTS))}")
        target = CopilotStudioTarget(client_id=client_id, tenant_id=tenant_id, cloud=cloud)
    else:
        assert agent_path is not None  # exactly one of the two was given (checked above)
        try:
            target = load_target_agent_file(agent_path).target
        except TargetConfigError as exc:
            raise bad_input(f"--agent {agent_path}: {exc}") from None
    if not isinstance(target, CopilotStudioTarget) or not target.client_id:
        raise bad_input(
            f"--agent {agent_path}: login is for targets of type copilot-studio with a client_id "
            "(Direct Line needs no sign-in; a token_env target brings its own token)"
        )
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
        raise platform_failed(str(exc)) from None
    account = (result.get("id_token_claims") or {}).get("preferred_username", "the account")
    typer.echo(f"signed in as {account}; token cache: {path}")


def register(app: typer.Typer) -> None:
    """Add the `login` command."""
    app.command(name="login")(login)
