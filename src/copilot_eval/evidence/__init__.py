"""evidence layer."""
