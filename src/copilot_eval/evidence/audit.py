"""Records of the requests actually sent to the model (``audit_requests=True``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class RequestAuditRecord(BaseModel):
    """One outgoing model request, read from the final request body (never its headers)."""

    request_id: str
    model: str | None = None
    tool_names: list[str] = Field(default_factory=list)
    reasoning_effort: str | None = None
    image_details: list[str | None] = Field(default_factory=list)
    image_count: int = 0
    instructions_sha256: str
    wire_api: Literal["completions", "responses"] | None = None
    transport: Literal["http", "websocket"] | None = None
    agent_id: str | None = None
    # Messages (chat completions) or input items (Responses) the request carried; None in records
    # saved before it was recorded. With the instructions' hash and the tool names, what shows that
    # two runs sent the model the same thing.
    message_count: int | None = None
    markers: dict[str, bool] | None = Field(
        default=None,
        description="Each marker the run watched for (audit_markers): whether this request gave it to the model "
        "(in a system, user or tool message, or a tool's definition; never counting the model's own words). "
        "None: no markers were watched.",
    )
    customizations: dict[str, Literal["text", "listed"]] | None = Field(
        default=None,
        description="Customization files (path as in result.customizations) this request carried: their text, "
        "or only their name in the runtime's list of path-specific instructions; absent: neither. "
        "None: no files were looked for.",
    )
