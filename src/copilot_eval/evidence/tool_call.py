"""One tool call as observed in the runtime's event stream, with honest unknowns."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from copilot_eval.evidence.content import ContentItem, ToolProgress


class ToolCallRef(BaseModel):
    """The tool call a record is about: the tool's name and the runtime's call id (``ToolCall.call_id``).

    Both ``None`` when the record concerns no call or the runtime did not say which. A base of the
    records that point at a call, so the two fields mean one thing everywhere; they come first in
    those records' JSON form.
    """

    tool_name: str | None = None
    tool_call_id: str | None = None


class ToolImage(BaseModel):
    """An image a tool returned, kept as bytes with its media type."""

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")

    content: bytes
    media_type: str | None = None


class ToolException(BaseModel):
    """What a Python tool raised: kept in the evidence only; the model was sent the SDK's standard failure text."""

    type: str
    message: str
    traceback: list[str] = Field(default_factory=list)
    """The innermost frames, ``file:line in function``, outermost first (the handler's own code)."""

    def __str__(self) -> str:
        return f"{self.type}: {self.message}" if self.message else self.type


class LargeOutput(BaseModel):
    """A result over the runtime's size limit, which the runtime saved to a file and gave the model a pointer to.

    The runtime's documented behaviour, not missing evidence: the model was given the pointer and a
    short preview (``ToolCall.sent_to_model``), and ``ToolCall.result`` keeps the whole result where
    the run saw it (an MCP tool's content items, a Python tool's handed text; otherwise the pointer).
    """

    path: str | None = None
    """The file the runtime saved the whole result to (on the runtime's machine; it may be gone)."""
    original_bytes: int | None = None
    threshold_bytes: int | None = None
    """The runtime's limit: a result longer than this many bytes is saved to a file (20,480 in 1.0.102)."""
    whole_result_kept: bool = False
    """Whether ``ToolCall.result`` is the whole result (False: only the pointer was seen)."""


class ToolCall(BaseModel):
    """A tool call: what was asked, whether it completed, and what came back.

    ``None`` always means "not captured", never "empty": ``result=""`` is a tool that returned
    an empty string, ``result=None`` is a tool whose output text was not seen.
    """

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")

    call_id: str | None = None
    name: str | None = None
    arguments: dict[str, Any] | None = None
    # The arguments as received when they were not a JSON object (a capture error says so).
    raw_arguments: Any = None
    completion_received: bool | None = None
    success: bool | None = None
    result: str | None = None
    detailed_result: str | None = None
    structured_result: Any = None
    error: str | None = None
    image_content: bytes | None = None
    image_media_type: str | None = None
    additional_images: list[ToolImage] = Field(default_factory=list)
    mcp_server_name: str | None = None
    # Every content item of the result in order (MCP tools); ``result`` stays the runtime's text.
    content_items: list[ContentItem] = Field(default_factory=list)
    progress: ToolProgress | None = None  # None: the tool sent no progress notification
    agent_id: str | None = None
    parent_call_id: str | None = None
    turn_id: str | None = None
    duration_ms: float | None = None
    # The tool's result type as the runtime was told it: success, failure, rejected, denied or
    # timeout (None when not known).
    result_type: str | None = None
    # The tool message the model was actually sent for this call, when it differs from ``result``
    # (a failure's text, a built-in tool's longer error); None when the run could not see it.
    sent_to_model: str | None = None
    # What a Python tool raised (type, message, traceback summary); never shown to the model.
    exception: ToolException | None = None
    # Set when the runtime saved the result to a file and gave the model a pointer and a preview.
    large_output: LargeOutput | None = None

    # The properties below are alike in shape to gate/sides.py's and TargetTurn's (property, docstring, one
    # expression): each computes its own fact.
    @property
    def evidence_complete(self) -> bool:
        """True when completion and outcome are known and some output, error or image is held."""
        if self.completion_received is not True or self.success is None:
            return False
        return self.result is not None or self.error is not None or self.image_content is not None

    @property
    def outcome(self) -> str:
        """The tool's outcome in one word: "ok", "failed" or "unknown" (not an evidence verdict)."""
        return {True: "ok", False: "failed", None: "unknown"}[self.success]

    @property
    def resource_links(self) -> list[ContentItem]:
        """The resource links the tool returned (``uri``, ``name``, ``title``, ``mime_type`` ...), in order."""
        return self.content_of_type("resource_link")

    @property
    def embedded_resources(self) -> list[ContentItem]:
        """The resources the tool embedded in its result (text, or bytes with size and sha256), in order."""
        return self.content_of_type("resource")

    def content_of_type(self, kind: str) -> list[ContentItem]:
        """The content items of one type (``text``, ``image``, ``audio``, ``resource_link``, ``resource``)."""
        return [item for item in self.content_items if item.type == kind]

    def returned_resource(self, uri: str) -> bool:
        """Whether the tool returned a link to, or embedded, the resource with this URI."""
        return any(item.uri == uri for item in self.content_items if item.type in ("resource_link", "resource"))

    def argument(self, key: str, default: Any = None) -> Any:
        """One argument of the call, or ``default`` when absent or arguments were not captured."""
        return (self.arguments or {}).get(key, default)

    def __str__(self) -> str:
        # Deliberately not a verdict: the string shows what was seen, evidence_complete decides.
        args = json.dumps(self.arguments, ensure_ascii=False) if self.arguments is not None else "?"
        outcome = "outcome unknown" if self.success is None else self.outcome
        return f"{self.name or '?'}({args}) -> {outcome}"
