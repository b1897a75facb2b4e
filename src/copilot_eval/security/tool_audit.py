"""An audit of the tools an agent is offered: its MCP servers started as a run would, every tool read and checked.

The tools are read from the real runtime's first model request (``runtime.offered_tools``: a
scripted model answers, no real model is called), so they are exactly what the model would be
given. MCP and Python tools are checked (``tool_checks``) and pinned (``tool_pins``); the runtime's
built-in tools are its own and are left out of both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.agent.config import CopilotEval
from copilot_eval.runtime.offered_tools import OfferedTool, ToolListing, list_offered_tools
from copilot_eval.security.tool_checks import ToolFinding, ToolText, check_tools
from copilot_eval.security.tool_pins import PinChange, Pins, pin_changes, read_pins, write_pins

__all__ = ["ToolAudit", "audit_tools", "audited_tools"]


def audited_tools(tools: list[OfferedTool]) -> list[OfferedTool]:
    """The tools an audit reads: MCP and Python tools (the runtime's built-in ones are its own)."""
    return [tool for tool in tools if tool.kind != "built-in"]


@dataclass
class ToolAudit:
    """What an audit found: the tools read, the findings, and the pin file's verdict."""

    tools: list[OfferedTool]
    findings: list[ToolFinding]
    listing: ToolListing
    pin_file: Path | None = None
    pinned_now: bool = False
    changes: list[PinChange] = field(default_factory=list)

    @property
    def read(self) -> bool:
        """Whether the model's request was seen, so the tools are known (servers that failed prevent it)."""
        return bool(self.listing.tools)

    @property
    def high(self) -> list[ToolFinding]:
        """The high-severity findings."""
        return [finding for finding in self.findings if finding.severity == "high"]

    def pins(self) -> Pins:
        """The audited tools as pins: name -> server and definition hash."""
        return {tool.name: {"server": tool.server, "sha256": tool.sha256} for tool in self.tools}


async def audit_tools(agent: CopilotEval, *, pin_file: Path | None = None) -> ToolAudit:
    """Read and check the agent's tools; with ``pin_file``, write it when absent, else compare with it.

    Raises ``tool_pins.PinFileError`` for a pin file that cannot be read, before the runtime starts.
    """
    pinned = read_pins(pin_file) if pin_file is not None and pin_file.exists() else None
    listing = await list_offered_tools(agent)
    tools = audited_tools(listing.tools)
    texts = [ToolText(tool.name, tool.server, tool.description, tool.parameters) for tool in tools]
    audit = ToolAudit(tools, check_tools(texts), listing, pin_file)
    if pin_file is None or not audit.read:
        return audit
    if pinned is None:
        write_pins(pin_file, audit.pins(), agent=agent.name)
        audit.pinned_now = True
    else:
        audit.changes = pin_changes(pinned, audit.pins())
    return audit
