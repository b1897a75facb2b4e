"""evalsets layer."""
