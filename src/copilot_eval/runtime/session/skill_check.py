"""Skill discovery for explicit ``skill_directories``: what the SDK lists before the first prompt.

Availability is evidence of what the session could use, not of what it used. A skill found in
the explicit directories that the SDK reports disabled, without the agent asking for that in
``disabled_skills``, stops the run before any model request is sent.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence.skills import DiscoveredSkill, SkillDiscovery

__all__ = ["SkillCheckError", "check_skills", "local_directory_errors"]

SDK_TIMEOUT_S = 10.0


class SkillCheckError(RuntimeError):
    """A requested skill is not usable as configured; the run must not start."""


def local_directory_errors(directories: tuple[Path, ...]) -> list[str]:
    """Problems visible without the SDK: missing directories, files given as directories."""
    errors = []
    for directory in directories:
        path = Path(directory)
        if not path.exists():
            errors.append(f"skill_directories: {path} does not exist")
        elif not path.is_dir():
            errors.append(f"skill_directories: {path} is not a directory")
    return errors


def _value(field: Any) -> Any:
    return getattr(field, "value", field)


def _discovered(skill: Any) -> DiscoveredSkill:
    return DiscoveredSkill(
        name=skill.name,
        description=getattr(skill, "description", None),
        source=_value(getattr(skill, "source", None)),
        enabled=getattr(skill, "enabled", None),
        user_invocable=getattr(skill, "user_invocable", None),
        path=getattr(skill, "path", None),
        plugin_name=getattr(skill, "plugin_name", None),
        command_name=getattr(skill, "command_name", None),
        argument_hint=getattr(skill, "argument_hint", None),
    )


def _inside(path: str | None, directories: tuple[Path, ...]) -> bool:
    if not path:
        return False
    resolved = Path(path).resolve()
    return any(resolved.is_relative_to(Path(directory).resolve()) for directory in directories)


def requested_skills(discovery: SkillDiscovery, directories: tuple[Path, ...]) -> list[DiscoveredSkill]:
    """The discovered skills that come from the explicit directories."""
    return [skill for skill in discovery.skills if _inside(skill.path, directories)]


async def check_skills(session: Any, agent: CopilotEval) -> tuple[SkillDiscovery, str | None]:
    """Read the session's skill list and diagnostics.

    Returns the discovery record and, when a requested skill is unexpectedly disabled, the
    message that must stop the run before its first prompt (otherwise None).
    """
    directories = tuple(agent.skill_directories)
    discovery = SkillDiscovery(errors=local_directory_errors(directories))
    try:
        # reload() is the one call that returns the loader's warnings and errors; list() the metadata.
        diagnostics = await asyncio.wait_for(session.rpc.skills.reload(), SDK_TIMEOUT_S)
        discovery.warnings.extend(diagnostics.warnings)
        discovery.errors.extend(diagnostics.errors)
        listed = await asyncio.wait_for(session.rpc.skills.list(), SDK_TIMEOUT_S)
        discovery.skills = [_discovered(skill) for skill in listed.skills]
        discovery.complete = True
    except Exception as error:
        discovery.errors.append(f"SDK skill discovery failed: {type(error).__name__}: {error}")
        return discovery, None
    wanted_off = set(agent.disabled_skills)
    blocked = [
        skill.name
        for skill in requested_skills(discovery, directories)
        if skill.enabled is False and skill.name not in wanted_off
    ]
    if not blocked:
        return discovery, None
    names = ", ".join(repr(name) for name in blocked)
    return discovery, (
        f"skill {names} from skill_directories is disabled in the session but not listed in "
        "disabled_skills; the task was not sent"
    )
