"""A tiny calculator with a bug for the agent to fix."""


def add(a: int, b: int) -> int:
    """The sum of a and b."""
    return a - b
