"""A small stdio MCP server for tests: keeps notes in memory."""

try:
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

server = Server("notes")
NOTES = {"groceries": "milk, bread"}


@server.tool()
def read_note(title: str) -> str:
    """Read a note by its title."""
    return NOTES.get(title, f"no note called {title}")


if __name__ == "__main__":
    server.run()
