"""The catalogue as the runtime loaded it: every skill of the agent's skill folders and every custom agent.

One short session (a scripted answer, never the agent's own model) opens the agent as a user
would mount it and reads the runtime's loaded list and the loader's diagnostics. A skill folder
the runtime did not list, or listed disabled, carries the loader's reason as a problem: a trigger
evaluation reports it as a setup problem, never as a skill that does not trigger.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence import CopilotResult
from copilot_eval.models import ScriptedModel
from copilot_eval.runtime.session.runner import run_copilot
from copilot_eval.triggers.outcome import CatalogueNeeds, loaded_skills

__all__ = ["Catalogue", "CatalogueEntry", "catalogue_from_result", "delivery_marker", "list_catalogue"]

_LISTING_TEXT = "catalogue listed"
_UNSAFE = re.compile(r"[<>&\"'\n\r\t\\]+")
MARKER_MAX = 80


def delivery_marker(description: str) -> str | None:
    """The piece of a description the request audit looks for: its longest run free of characters a prompt escapes."""
    pieces = [piece.strip() for piece in _UNSAFE.split(description)]
    best = max(pieces, key=len, default="")
    return best[:MARKER_MAX] if len(best) >= 8 else None


@dataclass(frozen=True)
class CatalogueEntry:
    """A skill or custom agent: its name, description, where it came from, and what keeps it from the model."""

    name: str
    kind: Literal["skill", "agent"]
    description: str | None
    source: str | None
    path: str | None
    enabled: bool | None
    problems: tuple[str, ...] = ()

    @property
    def description_length(self) -> int | None:
        """Characters of the description (None when it has none)."""
        return len(self.description) if self.description is not None else None

    @property
    def description_sha256(self) -> str | None:
        """The hex SHA-256 of the description as UTF-8 (None when it has none): what names it in triggers.json."""
        return hashlib.sha256(self.description.encode("utf-8")).hexdigest() if self.description is not None else None

    @property
    def usable(self) -> bool:
        """Whether the model can be offered it: loaded, enabled and described."""
        return not self.problems


@dataclass(frozen=True)
class Catalogue:
    """Every skill of the agent's folders and every custom agent, as loaded, plus the loader's other diagnostics."""

    entries: tuple[CatalogueEntry, ...]
    diagnostics: tuple[str, ...] = ()
    builtin_skills: tuple[str, ...] = field(default=())

    def entry(self, name: str) -> CatalogueEntry | None:
        """The entry of this name, or None."""
        return next((entry for entry in self.entries if entry.name == name), None)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name in the catalogue."""
        return tuple(entry.name for entry in self.entries)

    def needs(self, names: tuple[str, ...] | None = None) -> CatalogueNeeds:
        """What a play over ``names`` (default: the whole catalogue) depends on, with each description's marker."""
        chosen = [e for e in self.entries if names is None or e.name in names]
        markers = {e.name: m for e in chosen if e.description and (m := delivery_marker(e.description))}
        skills = tuple(e.name for e in chosen if e.kind == "skill")
        skills += tuple(n for n in names or () if self.entry(n) is None)  # expected but absent: a setup problem
        agents = tuple(e.name for e in chosen if e.kind == "agent")
        return CatalogueNeeds(skills=skills, agents=agents, markers=markers)


def _inside(path: str | None, folders: tuple[Path, ...]) -> bool:
    if not path:
        return False
    resolved = Path(path).resolve()
    return any(resolved.is_relative_to(folder.resolve()) for folder in folders)


def _skill_folders(folders: tuple[Path, ...]) -> list[Path]:
    found: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            found += sorted(path.parent for path in folder.glob("*/SKILL.md"))
    return found


def catalogue_from_result(agent: CopilotEval, result: CopilotResult) -> Catalogue:
    """The catalogue read from one session's evidence (its loaded list and the loader's diagnostics)."""
    folders = tuple(Path(folder) for folder in agent.skill_directories)
    listed = loaded_skills(result) or []
    discovery = result.skill_discovery
    diagnostics = tuple((discovery.errors + discovery.warnings) if discovery is not None else ())
    entries: list[CatalogueEntry] = []
    for skill in listed:
        if not _inside(skill.path, folders):
            continue
        problems = []
        if skill.enabled is False:
            problems.append("disabled (disabled_skills, or the runtime's settings)")
        if not (skill.description or "").strip():
            problems.append("no description: the model has nothing to choose it by")
        entries.append(
            CatalogueEntry(
                skill.name, "skill", skill.description, skill.source, skill.path, skill.enabled, tuple(problems)
            )
        )
    loaded_paths = {Path(e.path).resolve().parent for e in entries if e.path}
    for folder in _skill_folders(folders):
        if folder.resolve() in loaded_paths:
            continue
        said = [text for text in diagnostics if folder.name in text]
        reason = said[0] if said else "the runtime did not load it (check its front matter: name and description)"
        entries.append(CatalogueEntry(folder.name, "skill", None, None, str(folder / "SKILL.md"), None, (reason,)))
    if not result.success and not listed:
        diagnostics += (f"the listing session failed: {result.error}",)
    for custom in agent.custom_agents:
        missing = () if custom.description else ("no description: the runtime skips the agent",)
        entries.append(CatalogueEntry(custom.name, "agent", custom.description, "custom agent", None, True, missing))
    builtin = tuple(s.name for s in listed if not _inside(s.path, folders))
    return Catalogue(tuple(entries), diagnostics, builtin)


def _listing_agent(agent: CopilotEval) -> CopilotEval:
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": _LISTING_TEXT}]}]}, source="catalogue listing")
    changes: dict[str, Any] = {
        "model": model,
        "provider": None,
        "audit_requests": False,
        "audit_markers": (),
        "stop_at_tools": (),
        "max_tool_calls": None,
    }
    # A skill disabled behind the agent's back stops the run before its prompt (skill_check), but the
    # discovery is recorded before that stop, and it is all the listing reads.
    return agent.with_options(**changes)


async def list_catalogue(agent: CopilotEval, *, pool: Any = None) -> Catalogue:
    """Open one session of ``agent`` (answered by a scripted model) and read the catalogue it loaded."""
    result = await run_copilot(_listing_agent(agent), "list the catalogue", pool=pool)
    return catalogue_from_result(agent, result)
