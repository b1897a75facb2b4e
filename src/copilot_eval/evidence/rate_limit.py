"""A run that ended because the model kept refusing it for load: HTTP 429, or 503 with Retry-After.

Such an end says nothing about the agent: the same conversation, played again later, would have
been answered. ``capture`` decides it (``capture.rate_limit``); runs read it to play the case
again instead of grading it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class RateLimit(BaseModel):
    """The model's last refusal: its status, the wait it asked for, and the runtime's words."""

    status: int = Field(description="HTTP status of the model's answer: 429, or 503 with a Retry-After.")
    retry_after_s: float | None = Field(
        default=None, description="Seconds the model asked to wait (its Retry-After header); None when not said."
    )
    message: str | None = Field(default=None, description="The runtime's error message for the run.")


__all__ = ["RateLimit"]
