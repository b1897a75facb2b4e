"""Errors of the runtime layer, each with the fix in its message."""

from __future__ import annotations


class RuntimeSetupError(RuntimeError):
    """The Copilot runtime could not be found, installed or started; the message says the fix."""


class ProtocolMismatchError(RuntimeSetupError):
    """The runtime speaks a protocol version the pinned SDK does not."""
