"""What a tool returned, item by item: text, images, audio, resource links, embedded resources.

An MCP tool answers with a list of content items; the runtime turns them into the one text the
model is sent (``ToolCall.result``) and keeps the list beside it. The list is evidence of its own:
a resource link or an image never appears in that text, and each item may carry annotations
(who it is for, how important it is). Bytes (images, audio, embedded blobs) are kept like images
always were: as bytes, base64 in the JSON form, with their size and SHA-256.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

ContentType = Literal["text", "image", "audio", "resource_link", "resource"]
CONTENT_TYPES: tuple[str, ...] = ("text", "image", "audio", "resource_link", "resource")
"""The content item types of the MCP specification; an item of another type keeps its own name."""


class ContentItem(BaseModel):
    """One content item of a tool's result, in the order the tool returned it.

    ``type`` is ``text``, ``image``, ``audio``, ``resource_link`` or ``resource`` (an embedded
    resource), or the name a tool used for a type this version does not know. Fields that do not
    apply to the type are ``None``. ``size`` is the number of bytes held in ``data`` (for a
    resource link: the size the link declares).
    """

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")

    # Optional fields alike in shape to DiscoveredSkill's, HostRequest's, SubagentInvocation's: other facts.
    type: str
    text: str | None = None
    uri: str | None = None
    name: str | None = None
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    data: bytes | None = None
    size: int | None = None
    sha256: str | None = None
    annotations: dict[str, Any] | None = None

    @property
    def audience(self) -> list[str] | None:
        """Who the item is meant for (``user``, ``assistant``), from its annotations; ``None`` if unsaid."""
        value = (self.annotations or {}).get("audience")
        return [str(who) for who in value] if isinstance(value, list) else None

    @property
    def priority(self) -> float | None:
        """The item's importance from 0 to 1, from its annotations; ``None`` if unsaid."""
        value = (self.annotations or {}).get("priority")
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    @property
    def is_blob(self) -> bool:
        """Whether this is an embedded resource holding bytes rather than text."""
        return self.type == "resource" and self.data is not None

    def __str__(self) -> str:
        # What a failure message shows: the type and what identifies the item, never its bytes.
        if self.type in ("resource_link", "resource"):
            return f"{self.type} {self.uri or '?'}"
        if self.type == "text":
            return f"text {(self.text or '')[:60]!r}"
        return f"{self.type} ({self.mime_type or '?'}, {self.size if self.size is not None else '?'} bytes)"


class ToolProgress(BaseModel):
    """Progress notifications a long-running tool sent while it ran, as the runtime relayed them.

    ``last_message`` is the runtime's text of the latest notification (runtime 1.0.102 writes
    ``"2.0/4.0 (50%): <the tool's message>"``); ``last_progress``, ``total`` and ``message`` are
    read from it when it has that shape, else ``None``.
    """

    count: int = 0
    last_message: str | None = None
    last_progress: float | None = None
    total: float | None = None
    message: str | None = None


__all__ = ["CONTENT_TYPES", "ContentItem", "ContentType", "ToolProgress"]
