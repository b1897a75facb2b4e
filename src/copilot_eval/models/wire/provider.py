"""The ``provider`` settings an in-process model source gives its session: a BYOK provider never dialled.

The ScriptedModel, the FunctionModel and Replay answer through the SDK's request handler, so the
runtime must still be told a wire API (and a transport) to speak; the address and key only have
to be harmless. ``serve()`` passes the loopback server's real address instead.
"""

from __future__ import annotations

__all__ = ["PLACEHOLDER_API_KEY", "UNUSED_BASE_URL", "in_process_provider"]

# In-process the runtime never dials base_url; if it ever did, port 9 (discard) on loopback fails at once.
UNUSED_BASE_URL = "http://127.0.0.1:9/v1"
# The runtime wants some key for a BYOK provider; this one says plainly that it is not a secret.
PLACEHOLDER_API_KEY = "scripted-model-no-key"


def in_process_provider(
    *, wire_api: str, transport: str, base_url: str | None = None, api_key: str = PLACEHOLDER_API_KEY
) -> dict[str, str]:
    """The session's ``provider`` dict: OpenAI-style, on ``wire_api``, over WebSockets when ``transport`` says so."""
    config = {"type": "openai", "base_url": base_url or UNUSED_BASE_URL, "api_key": api_key, "wire_api": wire_api}
    if transport == "websockets":
        config["transport"] = "websockets"
    return config
