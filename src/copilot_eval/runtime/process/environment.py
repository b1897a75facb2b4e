"""The environment a Copilot runtime process is started with, and so its MCP servers and the agent's shell.

By default a runtime inherits the whole environment of the Python process, as the Copilot CLI
does when a person starts it: the agent's shell finds the user's tools and settings (``PATH``,
``HOME``, a virtualenv, ``AWS_PROFILE``), MCP servers started with ``npx`` or ``uvx`` find their
caches, a server that reads its key from the environment gets it, and a test behaves the way the
agent behaves for the user. The price: every variable, secrets included, is readable by the
agent's shell and by every MCP server, and a tool that prints its environment puts them into the
result. The redactor scrubs what it can recognise (see ``copilot_eval.redaction``); an agent
that must not see the rest is started with a minimal environment instead:

``CopilotEval(minimal_env=True, pass_env=("AWS_PROFILE", "MYAPP_*"))`` passes on only
:data:`RUNTIME_NEEDS` (what the runtime, a shell and the usual server launchers need to start and
to reach a model: program search path, home, user, locale, temporary folders, TLS trust and
proxy settings, and the Windows system variables without which processes do not start) plus the
variables named in ``pass_env`` (``fnmatch`` patterns, matched case-sensitively). The GitHub
token of a GitHub-hosted model still reaches the runtime: the SDK hands it over in a variable of
its own, whatever the environment.

Runtimes started with different environments are never shared: the pool keys its processes by
:class:`EnvironmentPolicy`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase

from copilot_eval.redaction import register_environment_secrets
from copilot_eval.runtime.process.home import asset_cache_dir

__all__ = ["RUNTIME_NEEDS", "EnvironmentPolicy", "runtime_environment"]

_PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY")
RUNTIME_NEEDS: tuple[str, ...] = (
    # finding programs: node, git, bash, npx, uvx, python
    "PATH",
    # the shell, git, npm and most tools read these
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    # text encoding and time of the agent's shell
    "LANG",
    "LANGUAGE",
    "LC_*",
    "TZ",
    "TERM",
    # temporary folders
    "TMPDIR",
    "TMP",
    "TEMP",
    # TLS trust (a company's CA) and the way out to the model: without them HTTPS fails behind a proxy
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    *_PROXIES,
    *(name.lower() for name in _PROXIES),
    # Windows: processes do not start without SYSTEMROOT; the others locate the user's folders
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "USERPROFILE",
    "HOMEDRIVE",
    "HOMEPATH",
    "APPDATA",
    "LOCALAPPDATA",
    "PROGRAMDATA",
    "PROGRAMFILES",
    "PROGRAMFILES(X86)",
)
"""What a runtime started with ``minimal_env=True`` receives from the environment, besides
``pass_env`` (patterns; ``LC_*`` is every locale variable)."""


@dataclass(frozen=True)
class EnvironmentPolicy:
    """Which variables of the environment a runtime receives: all of them, or the minimal set plus ``pass_env``."""

    minimal: bool = False
    pass_env: tuple[str, ...] = ()

    @property
    def description(self) -> str:
        """One line for the configuration snapshot: ``inherited`` or ``minimal + NAMES``."""
        if not self.minimal:
            return "inherited"
        return "minimal" + (f" + {', '.join(self.pass_env)}" if self.pass_env else "")

    def select(self, environ: Mapping[str, str]) -> dict[str, str]:
        """The variables of ``environ`` this policy passes on."""
        if not self.minimal:
            return dict(environ)
        patterns = RUNTIME_NEEDS + self.pass_env
        # Windows names are case-insensitive (Path and PATH are one variable); POSIX names are not.
        fold = str.upper if sys.platform == "win32" else str
        return {
            name: value
            for name, value in environ.items()
            if any(fnmatchcase(fold(name), fold(pattern)) for pattern in patterns)
        }


def runtime_environment(policy: EnvironmentPolicy | None = None) -> dict[str, str]:
    """Environment for a runtime process: the caller's (all of it, or what ``policy`` passes on),
    with the shared asset cache. Its secrets are registered with the redactor before it is used:
    the runtime, its MCP servers and the agent's shell can print it back."""
    env = (policy or EnvironmentPolicy()).select(os.environ)
    env["XDG_CACHE_HOME"] = str(asset_cache_dir())
    register_environment_secrets(env)
    return env
