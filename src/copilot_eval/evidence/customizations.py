"""The repository's customization files (instruction files, AGENTS.md, prompt files) and whether
each reached the model, as read from the requests the runtime sent (the request audit)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

CustomizationKind = Literal[
    "copilot-instructions",  # .github/copilot-instructions.md, or copilot-instructions.md in the user folder
    "instructions",  # *.instructions.md, with or without applyTo
    "agents-md",  # AGENTS.md
    "claude-md",  # CLAUDE.md
    "gemini-md",  # GEMINI.md
    "claude-rule",  # .claude/rules/**/*.md
    "prompt",  # *.prompt.md: run on request (VS Code), never loaded as instructions
]
CustomizationScope = Literal["repository", "folder", "user"]
CustomizationStatus = Literal["delivered", "listed", "not_applicable", "not_delivered", "malformed"]
"""``delivered``: the file's text was in a request (system prompt, a user message, or a tool result
when the agent read it). ``listed``: the request named the file and its ``applyTo`` but not its
text (the runtime leaves reading it to the agent). ``not_applicable``: the file does not apply to
this run by its own terms (an ``applyTo`` that matches no file, a prompt file). ``not_delivered``:
neither its text nor its name was sent. ``malformed``: not delivered, and the file itself is
broken (frontmatter that does not parse)."""


class FoundCustomization(BaseModel):
    """A customization file as found on disk, before any request is read: what the runtime should do with it.

    ``path`` is relative to the working directory (``../`` above it) for repository and folder files, absolute for user
    files. ``read_by_runtime`` is False (with ``why_not_read``) where this runtime does not read
    the file in this place or mode (a wrong suffix, a folder outside the working directory's path,
    a user folder the session does not use). ``listed_as`` is how the runtime's list of
    path-specific files names it, where it would.
    """

    # Alike in shape to SecurityCase's and Finding's fields (security/cases.py, reports/findings.py): other facts.
    # Shared with CustomizationFile below are kind, path, scope, apply_to only; kept spelled out in each record.
    kind: CustomizationKind
    path: str
    scope: CustomizationScope
    apply_to: str | None = None
    frontmatter_problem: str | None = None
    apply_to_matches: bool | None = None  # does applyTo match a file of the repository or a touched path
    read_by_runtime: bool = True
    why_not_read: str | None = None
    listed_as: str | None = None
    text: str = ""  # the file's text without its frontmatter, as the probe looks for it


class CustomizationFile(BaseModel):
    """One customization file of a run and what happened to it (``status`` None: unknown, no audit)."""

    kind: CustomizationKind
    path: str
    scope: CustomizationScope
    apply_to: str | None = None
    status: CustomizationStatus | None = None
    reason: str | None = None

    @property
    def delivered(self) -> bool | None:
        """Whether the file's text reached the model; None when unknown."""
        return None if self.status is None else self.status == "delivered"


__all__ = [
    "CustomizationFile",
    "CustomizationKind",
    "CustomizationScope",
    "CustomizationStatus",
    "FoundCustomization",
]
