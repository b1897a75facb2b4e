"""The files an agent file names: what its fingerprint covers and what a remote worker needs.

An agent is more than its YAML: the scripted model's script, custom agents, skill folders, a
working directory and the scripts of MCP servers started from the agent's folder change what it
does. ``agent_files`` lists them once, read the way ``agent_file`` reads them, so the fingerprint
of a run and the bundle shipped to Ray workers cannot disagree about what "the agent" is.

Paths are kept as written relative to the agent's folder (``{agent_dir}/x`` counts as ``x``):
that is what is the same on every machine. A file named by an absolute path cannot be carried
to another machine's copy of the folder; it is listed apart, so a caller can say so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from copilot_eval.agent.agent_file import _agent_path
from copilot_eval.bounded_yaml import load_yaml_file

AGENT_DIR = "{agent_dir}"
_SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".venv", "node_modules"})


@dataclass(frozen=True)
class AgentFiles:
    """The agent file and every file it names: ``relative`` under ``root``, ``absolute`` elsewhere."""

    agent_file: Path
    root: Path
    relative: tuple[str, ...]
    absolute: tuple[Path, ...] = ()

    @property
    def agent_relative(self) -> str:
        """The agent file's own path under ``root``."""
        return self.agent_file.relative_to(self.root).as_posix()

    def files(self) -> list[tuple[str, Path]]:
        """(name, path) of every file, the relative ones first; names are stable across machines."""
        named = [(name, self.root / name) for name in self.relative]
        return named + [(str(path), path) for path in self.absolute]


def _walk(folder: Path) -> list[Path]:
    if folder.is_file():
        return [folder]
    found: list[Path] = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        found.extend(Path(current) / name for name in sorted(files))
    return found


def _custom_agent_file(entry: str, base: Path) -> Path:
    return _agent_path(entry, base)


def _mcp_paths(servers: Any, base: Path) -> tuple[list[Path], list[Path]]:
    """Files the MCP servers are started from: ``{agent_dir}/...`` (relative) or absolute paths."""
    relative: list[Path] = []
    absolute: list[Path] = []
    for server in (servers or {}).values() if isinstance(servers, dict) else ():
        if not isinstance(server, dict):
            continue
        words = [server.get("command"), *(server.get("args") or [])]
        for word in words:
            if not isinstance(word, str) or "{python}" in word:
                continue
            if AGENT_DIR in word:
                candidate = base / word.split(AGENT_DIR, 1)[1].lstrip("/\\")
                if candidate.is_file():
                    relative.append(candidate)
            elif os.path.isabs(word) and Path(word).is_file():
                absolute.append(Path(word))
    return relative, absolute


def _named_paths(data: dict[str, Any], base: Path) -> tuple[list[Path], list[Path]]:
    relative: list[Path] = []
    model = data.get("model")
    if isinstance(model, dict) and isinstance(model.get("scripted"), str):
        relative.append(base / model["scripted"])
    for entry in data.get("custom_agents") or []:
        if isinstance(entry, str):
            relative.append(_custom_agent_file(entry, base))
    for entry in data.get("skill_directories") or []:
        if isinstance(entry, str):
            relative.extend(_walk(base / entry))
    if isinstance(data.get("working_directory"), str):
        relative.extend(_walk(base / data["working_directory"]))
    server_relative, absolute = _mcp_paths(data.get("mcp_servers"), base)
    return relative + server_relative, absolute


def agent_files(path: str | Path) -> AgentFiles:
    """The agent file at ``path`` and the files it names (missing ones are left to the loader to report)."""
    agent_file = Path(path).resolve()
    try:
        data = load_yaml_file(agent_file)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        data = None  # the loader reports it, naming the file
    base = agent_file.parent
    named, absolute = _named_paths(data, base) if isinstance(data, dict) else ([], [])
    existing = [p.resolve() for p in named if p.is_file()]
    root = Path(os.path.commonpath([base, *(p.parent for p in existing)]))
    relative = sorted({PurePosixPath(p.relative_to(root)).as_posix() for p in [agent_file, *existing]})
    return AgentFiles(
        agent_file=agent_file,
        root=root,
        relative=tuple(relative),
        absolute=tuple(sorted({p.resolve() for p in absolute} - {agent_file})),
    )


__all__ = ["AgentFiles", "agent_files"]
