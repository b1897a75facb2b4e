"""Which skills the SDK reported as available before the task ran (not which were used)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class DiscoveredSkill(BaseModel):
    """One skill as the SDK listed it; absent metadata stays ``None``."""

    name: str
    description: str | None = None
    source: str | None = None
    enabled: bool | None = None
    user_invocable: bool | None = None
    path: str | None = None
    plugin_name: str | None = None
    command_name: str | None = None
    argument_hint: str | None = None


class SkillDiscovery(BaseModel):
    """The discovery check for explicit skill directories.

    ``complete`` says the check finished, not that it succeeded: read ``errors`` too.
    ``skills == []`` is a completed, empty list.
    """

    skills: list[DiscoveredSkill] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    complete: bool = False
