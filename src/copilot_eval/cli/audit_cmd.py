"""`copilot-eval audit AGENT.yaml`: read every tool the agent is offered and flag what is suspicious in it.

Exit codes (``copilot_eval.exit_codes``): 0 nothing of high severity and no pin changed, 1 a high-severity finding or a tool
that changed since ``--pin FILE`` was written, 2 bad input (agent file, pin file), 3 the tools
could not be read (an MCP server that did not start, the runtime).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from copilot_eval.agent import AgentFileError, load_agent_file
from copilot_eval.cli.exits import bad_input, leave, platform_failed
from copilot_eval.cli.options import JsonOption
from copilot_eval.exit_codes import BELOW_GATE, Verdict
from copilot_eval.reports.console import make_console
from copilot_eval.reports.inspect_view import mcp_server_table
from copilot_eval.security.tool_audit import ToolAudit, audit_tools
from copilot_eval.security.tool_pins import PinFileError
from copilot_eval.untrusted.terminal import terminal_line, terminal_markup


def audit(
    agent_file: Annotated[
        Path, typer.Argument(metavar="AGENT.yaml", help="The agent file.", exists=True, dir_okay=False)
    ],
    # declared inline like generate triggers' --mix before its --force (alike in shape only)
    pin: Annotated[
        Path | None,
        typer.Option("--pin", metavar="FILE", help="Write the tools' hashes here once; afterwards fail on any change."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Start the agent's MCP servers, read every tool they offer, and flag what in it is aimed at the model.

    Each tool's name, description and schema is read as a run would see it; flagged are instructions aimed at
    the model, hidden characters, shadowing of other servers' tools, credential paths and outsized descriptions.

    No real model is called: a scripted model records the request the model would get.
    """
    try:
        agent = load_agent_file(agent_file)
        found = asyncio.run(audit_tools(agent, pin_file=pin))
    except (AgentFileError, PinFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    if as_json:
        typer.echo(json.dumps(_document(found), indent=2, ensure_ascii=False))
    else:
        _render(found)
    if not found.read:
        result = found.listing.result
        raise platform_failed(f"the tools could not be read: {result.error if result else 'no request was made'}")
    if found.high or found.changes:
        why = [f"{len(found.high)} high-severity finding(s)"] if found.high else []
        why += [f"{len(found.changes)} tool(s) changed since --pin was written"] if found.changes else []
        raise leave(Verdict(BELOW_GATE, "; ".join(why)))


def _document(found: ToolAudit) -> dict[str, object]:
    result = found.listing.result
    return {
        "tools": [{"name": t.name, "server": t.server, "kind": t.kind, "sha256": t.sha256} for t in found.tools],
        "findings": [finding.to_dict() for finding in found.findings],
        "pin": None
        if found.pin_file is None
        else {
            "file": str(found.pin_file),
            "written": found.pinned_now,
            "changes": [change.to_dict() for change in found.changes],
        },
        "mcp_servers": [s.model_dump(mode="json") for s in result.mcp_servers] if result else [],
        "error": None if found.read else (result.error if result else "no request was made"),
    }


def _render(found: ToolAudit) -> None:
    console = make_console()  # tables sized to the terminal, or wide in a CI log
    if found.findings:
        table = Table(title=f"{len(found.findings)} findings in {len(found.tools)} tools")
        for column in ("severity", "kind", "tool", "where", "matched", "why"):
            table.add_column(column, overflow="fold")
        for f in found.findings:  # tool names, descriptions and what matched are the server's words
            table.add_row(*(terminal_line(v) for v in (f.severity, f.kind, f.tool, f.where, f.matched, f.message)))
        console.print(table)
    elif found.read and not found.tools:
        console.print("nothing to audit: the agent has no MCP or Python tool (built-in tools are not audited)")
    elif found.read:
        console.print(f"no findings in {len(found.tools)} tools", highlight=False)
    result = found.listing.result
    if result is not None and result.mcp_servers and not found.read:
        console.print(mcp_server_table(result.mcp_servers))
    if found.pinned_now:
        console.print(f"pinned {len(found.tools)} tools in {found.pin_file}", highlight=False)
    for change in found.changes:
        console.print(f"[red]changed since the pin:[/red] {terminal_markup(change.describe())}", highlight=False)
    if found.pin_file is not None and found.read and not found.pinned_now and not found.changes:
        console.print(f"every tool is as pinned in {found.pin_file}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the `audit` command to ``app``."""
    app.command("audit")(audit)
