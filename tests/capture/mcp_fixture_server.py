"""A tiny stdio MCP server used by record_event_logs.py: one string tool, one dict tool."""

# mcp 2.x renamed FastMCP to MCPServer; accept both so the recorder runs with either.
try:
    from mcp.server.mcpserver import MCPServer as _Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as _Server

server = _Server("ledger")


@server.tool()
def lookup_owner(account: str) -> str:
    """Return the owner of an account as plain text."""
    return f"owner of {account}: Ada"


@server.tool()
def account_details(account: str) -> dict:
    """Return account details as a structured object."""
    return {"account": account, "balance": 42, "currency": "EUR"}


if __name__ == "__main__":
    server.run()
