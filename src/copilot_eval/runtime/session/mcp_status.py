"""Before the first prompt: ask the runtime which MCP servers started, and stop if one must have.

``session.mcp.list`` (runtime 1.0.102) starts the session's MCP servers when needed and waits for
them, so a missing binary or a server that crashes at start is known before any model call. The
rows are raw facts for capture; whether they end the run is capture's decision
(``mcp_startup_failure``), which the runner applies by not sending the prompt.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.capture.mcp_servers import mcp_server_statuses, mcp_startup_failure
from copilot_eval.runtime.process.handle import RuntimeHandle
from copilot_eval.runtime.session.deadlines import RuntimeDied, guarded


class McpStartupError(RuntimeError):
    """A required MCP server could not start; the message names it and the runtime's error."""


async def list_mcp_servers(
    session: Any, agent: CopilotEval, handle: RuntimeHandle, deadline: float
) -> list[dict[str, Any]] | None:
    """The runtime's view of the agent's MCP servers (``None`` when it has none or cannot say)."""
    if not agent.mcp_servers:
        return None
    try:
        listing = await guarded(session.rpc.mcp.list(), handle, deadline)
    except (TimeoutError, RuntimeDied):
        raise
    except Exception:
        return None
    rows = []
    for server in getattr(listing, "servers", None) or []:
        row = server.to_dict()
        config = agent.mcp_servers.get(row.get("name"), {})
        rows.append(
            {
                "name": row.get("name"),
                "status": row.get("status"),
                "error": row.get("error"),
                "optional": config.get("optional") is True,
            }
        )
    return rows


def check_mcp_startup(rows: list[dict[str, Any]] | None) -> None:
    """Raise ``McpStartupError`` when capture says a required server's failure ends the run."""
    if rows is None:
        return
    failure = mcp_startup_failure(mcp_server_statuses([], rows))
    if failure:
        raise McpStartupError(failure)
