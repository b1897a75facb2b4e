"""How sure a record is, and what backs it: the ``ConfidenceMixin`` shared by sets and runs."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class Confidence(StrEnum):
    """How well a claim is established, strongest first."""

    CONFIRMED = "CONFIRMED"  # observed directly, e.g. on the platform or in a recorded run
    SOURCE_INSPECTED = "SOURCE-INSPECTED"  # read from source or configuration, not observed
    UNCONFIRMED = "UNCONFIRMED"  # asserted without evidence; the safe default


# Position in this tuple is strength; a higher index is weaker.
_STRENGTH_ORDER: tuple[Confidence, ...] = (
    Confidence.CONFIRMED,
    Confidence.SOURCE_INSPECTED,
    Confidence.UNCONFIRMED,
)


def weakest_confidence(*levels: Confidence | str) -> Confidence:
    """Return the weakest of several confidence levels (a composite claim is never stronger)."""
    if not levels:
        # No parts means nothing backs the claim, which is the weakest position there is.
        return Confidence.UNCONFIRMED
    parsed = [Confidence(level) for level in levels]
    return max(parsed, key=_STRENGTH_ORDER.index)


class CamelModel(BaseModel):
    """Base for evalsets models: snake_case in Python, camelCase in JSON, unknown keys refused."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        validate_assignment=True,
    )


class ConfidenceMixin(CamelModel):
    """A record that says how sure it is (``confidence``) and what backs it (``evidence``)."""

    confidence: Confidence = Confidence.UNCONFIRMED
    evidence: list[str] = Field(
        default_factory=list,
        description="File names or request ids that back this record.",
    )
    note: str | None = None


__all__ = ["CamelModel", "Confidence", "ConfidenceMixin", "weakest_confidence"]
