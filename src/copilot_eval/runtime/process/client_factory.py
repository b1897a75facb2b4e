"""Start one Copilot runtime process over stdio, the way every part of the tool does it.

stdio rather than TCP: the runtime dies with its pipe, so a crashed Python process cannot leave
an orphaned runtime behind.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from copilot_eval.runtime.process.home import asset_cache_dir, new_copilot_home

__all__ = ["runtime_environment", "start_client"]


def runtime_environment() -> dict[str, str]:
    """Environment for a runtime process: the caller's, with the shared asset cache."""
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(asset_cache_dir())
    return env


async def start_client(
    executable: Path,
    *,
    request_handler: Any = None,
    mode: str = "copilot-cli",
    github_token: str | None = None,
    base_directory: Path | None = None,
) -> Any:
    """Start a CopilotClient on the given runtime executable and return it, started."""
    from copilot import CopilotClient, RuntimeConnection

    client = CopilotClient(
        connection=RuntimeConnection.for_stdio(path=str(executable)),
        env=runtime_environment(),
        base_directory=str(base_directory or new_copilot_home()),
        request_handler=request_handler,
        log_level="error",
        github_token=github_token,
        use_logged_in_user=None if github_token else True,
        mode=mode,  # type: ignore[arg-type]
    )
    await client.start()
    return client
