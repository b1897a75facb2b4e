"""An example MCP server (stdio) for the quickstart: a tiny order book of a bike shop."""

try:  # mcp 2.x calls the high-level server MCPServer; 1.x called it FastMCP
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:
    from mcp.server.fastmcp import FastMCP as Server

ORDERS = {
    "1042": {"order_id": "1042", "customer": "Ada", "items": ["bike bell", "rear light"], "total_eur": 27.5},
    "1043": {"order_id": "1043", "customer": "Grace", "items": ["helmet"], "total_eur": 59.0},
}

server = Server("orders")


@server.tool()
def lookup_order(order_id: str) -> dict:
    """Look up one order by its id: customer, items and total in euros."""
    if order_id not in ORDERS:
        raise ValueError(f"no order with id {order_id}")
    return ORDERS[order_id]


if __name__ == "__main__":
    server.run()
