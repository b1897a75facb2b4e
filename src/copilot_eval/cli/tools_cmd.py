"""`copilot-eval tools AGENT.yaml`: every tool the agent's model would be offered, with descriptions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from copilot_eval.agent import AgentFileError, load_agent_file
from copilot_eval.cli.exits import bad_input, platform_failed
from copilot_eval.cli.options import JsonOption
from copilot_eval.reports.console import make_console
from copilot_eval.reports.inspect_view import mcp_server_table
from copilot_eval.runtime.offered_tools import ToolListing, list_offered_tools
from copilot_eval.untrusted.terminal import terminal_line, terminal_markup


def tools(
    agent_file: Annotated[
        Path, typer.Argument(metavar="AGENT.yaml", help="The agent file.", exists=True, dir_okay=False)
    ],
    as_json: JsonOption = False,
) -> None:
    """Start the agent's MCP servers and the runtime, and list the tools its model would be offered.

    The agent's custom agents are listed with the `task` tool's arguments the model delegates with.

    MCP tools are named <server>-<tool>; a server's `tools:` filter takes the server's own names.
    No real model is called: a scripted model records the request.
    """
    try:
        agent = load_agent_file(agent_file)
    except (AgentFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    listing = asyncio.run(list_offered_tools(agent))
    result = listing.result
    if as_json:
        document = {
            "tools": [
                {"name": t.name, "kind": t.kind, "server": t.server, "description": t.description}
                for t in listing.tools
            ],
            "mcp_servers": [s.model_dump(mode="json") for s in result.mcp_servers] if result else [],
            "custom_agents": [
                {
                    "name": d.name,
                    "description": d.description,
                    "taskArguments": list(d.arguments),
                    "call": None if d.skipped else d.call(),
                    "skipped": d.skipped,
                }
                for d in listing.delegates
            ],
            "warnings": listing.warnings,
            "error": None if listing.tools else (result.error if result else "no request was made"),
        }
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        _render(listing)
    if not listing.tools:
        raise platform_failed(f"the model was never asked: {result.error if result else 'unknown'}")


def _render(listing: ToolListing) -> None:
    console = make_console()  # tables sized to the terminal, or wide in a log
    table = Table(title="Tools offered to the model")
    for column in ("tool", "from", "description"):
        table.add_column(column, overflow="fold")
    for tool in listing.tools:
        source = f"MCP server {tool.server}" if tool.kind == "mcp" else tool.kind
        description = tool.description.strip().splitlines()[0] if tool.description.strip() else ""
        table.add_row(terminal_line(tool.name), terminal_line(source), terminal_line(description))
    if listing.tools:
        console.print(table)
    if listing.delegates:
        delegates = Table(title="Custom agents the model can delegate to (the task tool)")
        for column in ("agent", "description", "how the model calls it"):
            delegates.add_column(column, overflow="fold")
        for delegate in listing.delegates:
            how = f"never offered: {delegate.skipped}" if delegate.skipped else delegate.call()
            delegates.add_row(delegate.name, (delegate.description or "").strip(), how)
        console.print(delegates)
    result = listing.result
    if result is not None and result.mcp_servers:
        console.print(mcp_server_table(result.mcp_servers))
    for warning in listing.warnings:
        console.print(f"[yellow]warning:[/yellow] {terminal_markup(warning)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the `tools` command to ``app``."""
    app.command("tools")(tools)
