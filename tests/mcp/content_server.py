"""A stdio MCP server whose one tool returns a chosen mix of content items (for rendering tests)."""

from __future__ import annotations

import asyncio
import base64

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

server = MCPServer("content")


def _text(text: str, **extra: object) -> TextContent:
    return TextContent(type="text", text=text, **extra)


CASES = {
    "texts": lambda: [_text("alpha"), _text("beta\n"), _text("gamma")],
    "for_user_only": lambda: [
        _text("shown to you", annotations=Annotations(audience=["user"], priority=0.9)),
        _text(" and to the model", annotations=Annotations(audience=["assistant"])),
    ],
    "audio_link_blob": lambda: [
        _text("listen"),
        AudioContent(type="audio", data=base64.b64encode(b"RIFF-not-really").decode(), mime_type="audio/wav"),
        ResourceLink(type="resource_link", uri="file:///notes.md", name="notes", title="Notes", size=12),
        EmbeddedResource(
            type="resource",
            resource=BlobResourceContents(uri="file:///a.bin", blob=base64.b64encode(b"\x00\x01").decode()),
        ),
        EmbeddedResource(
            type="resource", resource=TextResourceContents(uri="file:///b.txt", mime_type="text/plain", text="inside")
        ),
    ],
}


@server.tool()
def show(case: str) -> CallToolResult:
    """Return the content items of a named case."""
    return CallToolResult(content=CASES[case]())


@server.tool()
def show_structured() -> CallToolResult:
    """Two text items and structured content that is not their JSON."""
    return CallToolResult(content=[_text("two "), _text("items")], structured_content={"count": 2})


@server.tool()
async def count_slowly(steps: int, ctx: Context) -> str:
    """Report progress with a message at each step."""
    for step in range(steps):
        await ctx.report_progress(step + 1, steps, f"step {step + 1} of {steps}")
        await asyncio.sleep(0.05)
    return "counted"


if __name__ == "__main__":
    server.run()
