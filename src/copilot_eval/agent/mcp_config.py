"""MCP server entries checked when an agent is built, so a typo fails at once instead of at run time.

A malformed entry (``args`` as one string, ``command`` as a list, a bad ``url``, an unknown key)
used to reach the runtime, which then waited for a server that never answered until
``timeout_s``. Every problem is named with its path: ``mcp_servers.git.args: expected a list of
strings, got '--repository /tmp'``.

The keys are the runtime's own: its MCP server configuration (``McpServerConfigStdio`` and
``McpServerConfigHttp`` in runtime 1.0.102's ``schemas/api.schema.json``; a runtime test keeps this
table equal to the installed runtime's), which the SDK hands over unchanged, less the keys its
loader fills in itself (``source``, ``sourcePath``, ...). ``optional`` is ours, ``working_directory``
the SDK's name for ``cwd``. An ``.agent.md`` file's ``mcp-servers`` are read by the runtime's
agent loader, which asks for more (``FILE_REQUIRED``): a file it would skip is refused, saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse

from copilot_eval.suggest import unknown_key

RUNTIME_COMMON_KEYS = (
    "tools",
    "type",
    "timeout",
    "displayName",
    "safeForTelemetry",
    "filterMapping",
    "slowConnectionThresholdMs",
    "oidc",
    "auth",
    "deferTools",
    "disableToolCache",
    "disableSecretMasking",
    "excludeTools",
    "events",
    "notifications",
)
RUNTIME_STDIO_KEYS = ("command", "args", "env", "cwd")
RUNTIME_HTTP_KEYS = (
    "url",
    "headers",
    "headersRefreshTtlMs",
    "oauthClientId",
    "oauthScopes",
    "oauthPublicClient",
    "oauthGrantType",
)
"""The runtime's MCP server keys a person may write (runtime 1.0.102)."""
LOADER_ONLY_KEYS = (
    "isDefaultServer",
    "source",
    "sourcePlugin",
    "sourcePluginVersion",
    "sourcePluginSpec",
    "sourcePath",
    "configWarnings",
)
"""Keys of the runtime's schema that its own loader fills in; not for agent files."""
COMMON_KEYS = (*RUNTIME_COMMON_KEYS, "optional")
STDIO_KEYS = (*RUNTIME_STDIO_KEYS, "working_directory")
HTTP_KEYS = RUNTIME_HTTP_KEYS
FILE_REQUIRED = {"stdio": ("args", "tools"), "http": ("type", "tools")}
"""What the runtime's agent loader requires of an ``.agent.md`` file's MCP server (runtime 1.0.102
skips the file otherwise, reporting ``mcp-servers.NAME.tools: Required``)."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _string_list(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value)


def _string_map(value: Any) -> bool:
    return isinstance(value, Mapping) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _field_problems(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, problem) pairs of one server entry."""
    problems: list[tuple[str, str]] = []
    command, url = config.get("command"), config.get("url")
    if "command" in config and "url" in config:
        problems.append(("", "give either 'command' (a stdio server) or 'url' (an HTTP server), not both"))
    elif "command" not in config and "url" not in config:
        problems.append(("", "needs 'command' (a stdio server) or 'url' (an HTTP server)"))
    if "command" in config and not (isinstance(command, str) and command.strip()):
        hint = "; put the program in command and the rest in args" if isinstance(command, (list, tuple)) else ""
        problems.append(("command", f"expected the program to run as a string, got {_shown(command)}{hint}"))
    if "url" in config:
        parsed = urlparse(url) if isinstance(url, str) else None
        if parsed is None or parsed.scheme not in ("http", "https") or not parsed.netloc:
            problems.append(("url", f"expected an http:// or https:// URL, got {_shown(url)}"))
    for key in ("args", "tools"):
        if key in config and not _string_list(config[key]):
            problems.append((key, f"expected a list of strings, got {_shown(config[key])}"))
    for key in ("env", "headers"):
        if key in config and not _string_map(config[key]):
            problems.append((key, f"expected a mapping of names to string values, got {_shown(config[key])}"))
    for key in ("cwd", "working_directory"):
        if key in config and not isinstance(config[key], str):
            problems.append((key, f"expected a folder path as a string, got {_shown(config[key])}"))
    kind = config.get("type")
    allowed_types = ("stdio", "local") if "command" in config else ("http", "sse")
    if "type" in config and kind not in allowed_types:
        problems.append(("type", f"expected one of {', '.join(allowed_types)}, got {_shown(kind)}"))
    timeout = config.get("timeout")
    if "timeout" in config and (isinstance(timeout, bool) or not isinstance(timeout, int) or timeout <= 0):
        problems.append(("timeout", f"expected a positive number of milliseconds, got {_shown(timeout)}"))
    for key in ("optional", "disableToolCache", "disableSecretMasking", "oauthPublicClient"):
        if key in config and not isinstance(config[key], bool):
            problems.append((key, f"expected true or false, got {_shown(config[key])}"))
    for key in ("auth", "oidc"):
        value = config.get(key)
        port = value.get("redirectPort") if isinstance(value, Mapping) else None
        if key in config and not (isinstance(value, bool) or (isinstance(value, Mapping) and _port(port))):
            problems.append((key, f"expected true, false or {{redirectPort: PORT}}, got {_shown(value)}"))
    for key in ("excludeTools", "oauthScopes", "events", "notifications"):
        if key in config and not _string_list(config[key]):
            problems.append((key, f"expected a list of strings, got {_shown(config[key])}"))
    if "deferTools" in config and config["deferTools"] not in ("auto", "never"):
        problems.append(("deferTools", f"expected auto or never, got {_shown(config['deferTools'])}"))
    known = COMMON_KEYS + (HTTP_KEYS if "url" in config and "command" not in config else STDIO_KEYS)
    for key in config:
        if key not in known:
            problems.append((str(key), unknown_key(str(key), known)))
    return problems


def _port(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and 0 < value < 65536)


def _loader_problems(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What the runtime's agent loader would skip an ``.agent.md`` file for, in this server entry."""
    kind = "stdio" if "command" in config else "http"
    return [
        (key, "required in an .agent.md file: the Copilot runtime's agent loader skips the file without it")
        for key in FILE_REQUIRED[kind]
        if key not in config
    ]


def mcp_file_problems(servers: Any, *, where: str = "mcp-servers") -> list[str]:
    """What the runtime's agent loader requires of an ``.agent.md`` file's servers and finds missing."""
    if not isinstance(servers, Mapping):
        return []
    return [
        f"{where}.{name}.{field}: {problem}"
        for name, config in servers.items()
        if isinstance(config, Mapping)
        for field, problem in _loader_problems(config)
    ]


def mcp_server_problems(servers: Any, *, where: str = "mcp_servers") -> list[str]:
    """Every problem of an ``mcp_servers`` mapping, each naming its path; empty when all is well."""
    if not isinstance(servers, Mapping):
        return [f"{where}: expected a mapping of server names to settings, got {_shown(servers)}"]
    problems = []
    for name, config in servers.items():
        if not isinstance(config, Mapping):
            problems.append(
                f"{where}.{name}: expected a mapping of settings (command, args, env or url), got {_shown(config)}"
            )
            continue
        for field, problem in _field_problems(config):
            path = f"{where}.{name}.{field}" if field else f"{where}.{name}"
            problems.append(f"{path}: {problem}")
    return problems


def sdk_mcp_servers(servers: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The servers as the SDK takes them: every tool offered unless the entry says otherwise, less our keys."""
    # `optional` is ours (a failed optional server does not end the run); the SDK never sees it.
    return {
        name: {"tools": ["*"], **{key: value for key, value in config.items() if key != "optional"}}
        for name, config in servers.items()
    }
