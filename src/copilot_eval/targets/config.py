"""Target settings read from an agent file's ``target:`` block, checked field by field.

Only names of environment variables are ever stored here, never a secret or a token: the value is
read when a conversation starts, so a settings object can be printed or saved safely.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from copilot_eval.suggest import did_you_mean

DIRECTLINE = "directline"
COPILOT_STUDIO = "copilot-studio"
DEFAULT_DIRECTLINE_URL = "https://directline.botframework.com/v3/directline"
#: Power Platform API hosts per cloud, as the Agents SDK 1.9.0 computes them (power_platform_environment.py).
CLOUD_API_HOSTS = {
    "prod": "api.powerplatform.com",
    "first_release": "api.powerplatform.com",
    "preprod": "api.preprod.powerplatform.com",
    "test": "api.test.powerplatform.com",
    "gov": "api.gov.powerplatform.microsoft.us",
    "high": "api.high.powerplatform.microsoft.us",
    "dod": "api.appsplatform.us",
    "mooncake": "api.powerplatform.partner.microsoftonline.cn",
}


class TargetConfigError(ValueError):
    """A ``target:`` block that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class DirectLineTarget:
    """A Copilot Studio agent over Direct Line 3.0 (token endpoint, or a secret named by env var)."""

    token_endpoint: str | None = None
    secret_env: str | None = None
    directline_url: str | None = None
    user_id: str | None = None
    start_conversation_event: bool = False
    websocket: bool = False
    quiet_s: float = 3.0
    poll_interval_s: float = 1.0
    max_retries: int = 2

    type = DIRECTLINE


# Alike in shape only to runs/settings.py's HowToPlay (defaulted fields of the same types); unrelated meanings.
@dataclass(frozen=True)
class CopilotStudioTarget:
    """A Copilot Studio agent over the Agents SDK (Direct-to-Engine) endpoint, user-delegated token."""

    environment_id: str | None = None
    schema_name: str | None = None
    cloud: str = "prod"
    agent_type: str = "published"
    direct_connect_url: str | None = None
    token_env: str | None = None
    client_id: str | None = None
    tenant_id: str | None = None
    start_conversation_event: bool = True

    type = COPILOT_STUDIO

    def conversations_url(self) -> str:
        """The URL conversations are created under (``.../bots/<schema>/conversations``)."""
        if self.direct_connect_url:
            return self.direct_connect_url.rstrip("/") + "/conversations"
        env = (self.environment_id or "").replace("-", "").lower()
        split = 1 if self.cloud not in ("prod", "first_release") else 2  # the SDK's host rule
        host = f"{env[:-split]}.{env[-split:]}.environment.{CLOUD_API_HOSTS[self.cloud]}"
        path = "prebuilt" if self.agent_type == "prebuilt" else "dataverse-backed"
        return f"https://{host}/copilotstudio/{path}/authenticated/bots/{self.schema_name}/conversations"


_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _check_types(cls: type, block: dict[str, Any], where: str) -> dict[str, Any]:
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(block) - set(known) - {"type"})
    if unknown:
        guesses = "".join(did_you_mean(str(key), known) for key in unknown)
        raise TargetConfigError(f"{where}: unknown field(s) {unknown}{guesses}; expected some of {sorted(known)}")
    values = {}
    for name, value in block.items():
        if name == "type":
            continue
        default = known[name].default
        expected = type(default) if default is not None else str
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise TargetConfigError(f"{where}.{name}: expected {expected.__name__}, got {value!r}")
        if name.endswith("_env") and isinstance(value, str) and not _ENV_NAME.match(value):
            raise TargetConfigError(
                f"{where}.{name}: {value!r} is not an environment variable name "
                "(write the variable's name here, never the secret itself)"
            )
        values[name] = value
    return values


def _check_url(value: str | None, where: str) -> None:
    if value is not None and not re.match(r"^https?://[^/\s]+", value):
        raise TargetConfigError(f"{where}: {value!r} is not an http(s) URL")


def parse_target(block: Any, *, file: str | Path = "<agent file>") -> DirectLineTarget | CopilotStudioTarget:
    """Check a ``target:`` mapping and return its settings; errors name the file and the field."""
    where = f"{file}: target"
    if not isinstance(block, dict):
        raise TargetConfigError(f"{where}: expected a mapping with a `type` ({DIRECTLINE} or {COPILOT_STUDIO})")
    kind = block.get("type")
    if kind == DIRECTLINE:
        config = DirectLineTarget(**_check_types(DirectLineTarget, block, where))
        if bool(config.token_endpoint) == bool(config.secret_env):
            raise TargetConfigError(
                f"{where}: give exactly one of token_endpoint (agents without web channel "
                "security) or secret_env (the env var holding the Direct Line secret)"
            )
        _check_url(config.token_endpoint, f"{where}.token_endpoint")
        _check_url(config.directline_url, f"{where}.directline_url")
        if config.user_id is not None and not config.user_id.startswith("dl_"):
            raise TargetConfigError(
                f"{where}.user_id: Direct Line user ids must start with 'dl_' (got {config.user_id!r})"
            )
        if config.quiet_s <= 0 or config.poll_interval_s <= 0 or config.max_retries < 0:
            raise TargetConfigError(f"{where}: quiet_s and poll_interval_s must be positive, max_retries >= 0")
        return config
    if kind == COPILOT_STUDIO:
        studio = CopilotStudioTarget(**_check_types(CopilotStudioTarget, block, where))
        _check_url(studio.direct_connect_url, f"{where}.direct_connect_url")
        if not studio.direct_connect_url and not (studio.environment_id and studio.schema_name):
            raise TargetConfigError(f"{where}: give environment_id and schema_name, or direct_connect_url")
        if studio.cloud not in CLOUD_API_HOSTS:
            raise TargetConfigError(f"{where}.cloud: {studio.cloud!r} is not one of {sorted(CLOUD_API_HOSTS)}")
        if studio.agent_type not in ("published", "prebuilt"):
            raise TargetConfigError(f"{where}.agent_type: expected published or prebuilt, got {studio.agent_type!r}")
        if studio.environment_id and len(studio.environment_id.replace("-", "")) < 4:
            raise TargetConfigError(f"{where}.environment_id: {studio.environment_id!r} is not an environment id")
        if not studio.token_env and not studio.client_id:
            raise TargetConfigError(
                f"{where}: give token_env (an env var holding a user-delegated token) or "
                "client_id (+ tenant_id) of the app `copilot-eval login` signs in with"
            )
        return studio
    raise TargetConfigError(f"{where}.type: expected {DIRECTLINE!r} or {COPILOT_STUDIO!r}, got {kind!r}")


__all__ = [
    "CLOUD_API_HOSTS",
    "COPILOT_STUDIO",
    "DEFAULT_DIRECTLINE_URL",
    "DIRECTLINE",
    "CopilotStudioTarget",
    "DirectLineTarget",
    "TargetConfigError",
    "parse_target",
]
