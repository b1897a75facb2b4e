"""A normalised conversation turn: one user prompt or one assistant message."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Turn(BaseModel):
    """One message of the conversation as the runtime reported it.

    Assistant turns list the ids of the tool calls they requested; the calls themselves live in
    ``CopilotResult.all_tool_calls``.
    """

    role: Literal["user", "assistant"]
    content: str
    tool_call_ids: list[str] = Field(default_factory=list)
    turn_id: str | None = None
    model: str | None = None
    message_id: str | None = None
