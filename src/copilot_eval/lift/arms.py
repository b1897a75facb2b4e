"""Arms of a lift run: named agents, and the customization text that tells them apart.

An arm is an agent plus what must (and must not) reach its model: each text that differs
between the arms (a skill's description and body, an instruction file at the root of its working
directory, the agent's instructions) is named by its SHA-256 and watched by the request audit through a marker, a
piece of it no other arm carries. ``vary_arms`` makes the two arms of one agent file from a
``--vary`` spec; ``expectations_of`` finds the differing texts of any set of arms.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml

from copilot_eval.agent.config import CopilotEval
from copilot_eval.bounded_yaml import YamlRefused, load_yaml
from copilot_eval.workdirs import new_working_directory

__all__ = [
    "Arm",
    "ArmError",
    "CustomizationText",
    "Expectation",
    "check_two_arms",
    "distinguishing_marker",
    "expectations_of",
    "instruction_files",
    "placement",
    "vary_arms",
]

TextKind = Literal["skill-description", "skill-body", "instructions", "agent-instructions"]
_UNSAFE = re.compile(r"[<>&\"'\n\r\t\\`*_#|\[\]]+")  # what a prompt escapes or Markdown rewrites
MARKER_MAX = 80
MARKER_MIN = 8
MAX_SKILL_BYTES = 256_000
MAX_INSTRUCTION_FILES = 50


class ArmError(ValueError):
    """Arms that cannot be compared; the message names the option or file and how to fix it."""


@dataclass(frozen=True)
class CustomizationText:
    """One piece of customization text an arm carries: what it is, its hash, and the marker the audit watches."""

    kind: TextKind
    name: str  # the skill's name, or the file's path, or the agent's name
    sha256: str
    marker: str | None  # None: no piece of it is unique to this arm (the audit cannot tell the arms apart by it)
    required: bool = True  # False: reaches the model only when used (a skill's body): recorded, never decisive


# Alike in shape to evalsets.prompt_evaluators.Choice (a text and a value), not in meaning: kept apart.
@dataclass(frozen=True)
class Expectation:
    """A text and whether it must reach this arm's model (``present``) or must not (``not present``)."""

    text: CustomizationText
    present: bool


@dataclass(frozen=True)
class Arm:
    """A named agent of a lift run and what its model must and must not be sent."""

    name: str
    agent: CopilotEval
    expectations: tuple[Expectation, ...] = ()

    def player(self) -> CopilotEval:
        """The agent as each play runs it: the request audit on, every expectation's marker watched."""
        markers = [e.text.marker for e in self.expectations if e.text.marker is not None]
        watched = tuple(dict.fromkeys((*self.agent.audit_markers, *markers)))
        return self.agent.with_options(audit_requests=True, audit_markers=watched)

    def customizations(self) -> list[str]:
        """Each text this arm must or must not carry, as ``SHA256:present|absent``, sorted (a checkpoint header's)."""
        return sorted(f"{e.text.sha256}:{'present' if e.present else 'absent'}" for e in self.expectations)


def check_two_arms(arms: list[Arm]) -> None:
    """ValueError unless ``arms`` are two arms of different names (a control, then a treatment)."""
    if len(arms) != 2 or arms[0].name == arms[1].name:
        raise ValueError(f"lift compares two arms with different names, got {[a.name for a in arms]}")


def sha256(text: str) -> str:
    """The hex SHA-256 of a text as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def distinguishing_marker(text: str, others: list[str]) -> str | None:
    """The longest piece of ``text`` free of escaped characters that none of ``others`` contains (None if none)."""
    pieces = sorted({p.strip() for p in _UNSAFE.split(text) if len(p.strip()) >= MARKER_MIN}, key=len, reverse=True)
    for piece in pieces:
        marker = piece[:MARKER_MAX].strip()
        if len(marker) >= MARKER_MIN and not any(marker in other for other in others):
            return marker
    return None


def _head(path: Path) -> str:
    """The first ``MAX_SKILL_BYTES`` of a customization file as text; only those are read, however large the file."""
    with path.open("rb") as handle:
        return handle.read(MAX_SKILL_BYTES).decode("utf-8", errors="replace")


def _frontmatter(path: Path) -> tuple[dict, str]:
    raw = _head(path)
    if not raw.startswith("---"):
        return {}, raw
    end = re.search(r"^---\s*$", raw[3:], re.MULTILINE)
    if end is None:
        return {}, raw
    try:
        data = load_yaml(raw[3 : 3 + end.start()], source=str(path))
    except (YamlRefused, yaml.YAMLError):
        data = None
    return (data if isinstance(data, dict) else {}), raw[3 + end.end() :]


@dataclass(frozen=True)
class _Skill:
    name: str
    folder: Path
    description: str
    body: str
    mounted: Path  # the skill directory it was found under


def _skill_files(base: Path) -> list[Path]:
    """SKILL.md files under ``base`` and in it, in any case: a misnamed one (skill.md) is a skill the user meant."""
    candidates = [*sorted(base.glob("*/*")), *sorted(base.glob("*"))]
    return [path for path in candidates if path.name.lower() == "skill.md" and path.is_file()]


def _skills(agent: CopilotEval) -> list[_Skill]:
    """Every skill the agent's folders hold as its author meant it, also one the runtime will not load.

    A SKILL.md directly in a skill folder, or one spelled ``skill.md``, is found here; whether the
    runtime loaded it is for the request audit to show (an arm whose description never arrived).
    """
    found = []
    for directory in agent.skill_directories:
        base = Path(directory)
        for skill_md in _skill_files(base):
            data, body = _frontmatter(skill_md)
            name = str(data.get("name") or skill_md.parent.name)
            found.append(_Skill(name, skill_md.parent, str(data.get("description") or ""), body.strip(), base))
    return found


def instruction_files(root: Path | None) -> dict[str, Path]:
    """The repository-wide instruction files at the top of ``root`` a user would place, by their path in it.

    ``.github/copilot-instructions.md``, ``AGENTS.md`` and ``.github/instructions/**/*.instructions.md``
    (the first ``MAX_INSTRUCTION_FILES``): what the runtime reads from a repository's root.
    """
    if root is None or not Path(root).is_dir():
        return {}
    base = Path(root)
    found = [base / ".github" / "copilot-instructions.md", base / "AGENTS.md"]
    found += sorted((base / ".github" / "instructions").glob("**/*.instructions.md"))[:MAX_INSTRUCTION_FILES]
    return {path.relative_to(base).as_posix(): path for path in found if path.is_file()}


def _texts(agent: CopilotEval) -> dict[tuple[TextKind, str], str]:
    texts: dict[tuple[TextKind, str], str] = {}
    for name, path in instruction_files(agent.working_directory).items():
        text = _head(path).strip()
        if text:
            texts[("instructions", name)] = text
    for skill in _skills(agent):
        if skill.description:
            texts[("skill-description", skill.name)] = skill.description
        if skill.body:
            texts[("skill-body", skill.name)] = skill.body
    if agent.instructions:
        texts[("agent-instructions", "instructions")] = agent.instructions
    return texts


def expectations_of(agents: dict[str, CopilotEval]) -> list[Arm]:
    """The arms of these agents, each expecting the texts that differ between them (present here, absent there)."""
    texts = {name: _texts(agent) for name, agent in agents.items()}
    keys = sorted({key for found in texts.values() for key in found})
    arms = []
    for name, agent in agents.items():
        expected: list[Expectation] = []
        for key in keys:
            mine = texts[name].get(key)
            others = [found[key] for other, found in texts.items() if other != name and key in found]
            if mine is not None and all(other == mine for other in others) and len(others) == len(agents) - 1:
                continue  # the same text in every arm: it does not tell them apart
            if mine is not None:
                marker = distinguishing_marker(
                    mine, [t for other, f in texts.items() if other != name for t in f.values()]
                )
                text = CustomizationText(key[0], key[1], sha256(mine), marker, required=key[0] != "skill-body")
                expected.append(Expectation(text, present=True))
            for other_text in dict.fromkeys(others):
                if other_text == mine:
                    continue
                marker = distinguishing_marker(other_text, list(texts[name].values()))
                if marker is None:
                    continue  # every piece of it is in this arm too (a text this arm extends): nothing to watch
                text = CustomizationText(key[0], key[1], sha256(other_text), marker, required=key[0] != "skill-body")
                expected.append(Expectation(text, present=False))
        arms.append(Arm(name, agent, tuple(expected)))
    return arms


def placement(file: Path) -> str:
    """Where a user puts an instruction file in a repository: ``NAME.instructions.md`` in .github/instructions,
    ``AGENTS.md`` at the root, any other file as the repository-wide .github/copilot-instructions.md."""
    if file.name.endswith(".instructions.md"):
        return f".github/instructions/{file.name}"
    if file.name == "AGENTS.md":
        return "AGENTS.md"
    return ".github/copilot-instructions.md"


def _working_copy(agent: CopilotEval) -> Path:
    """A fresh copy of the agent's working directory (without .git), or a fresh empty folder when it has none."""
    copy = new_working_directory("copilot-eval-lift-workdir-") / "workdir"
    if agent.working_directory is None:
        copy.mkdir()
    else:
        ignore = shutil.ignore_patterns(".git")
        shutil.copytree(Path(agent.working_directory), copy, symlinks=True, ignore=ignore)
    return copy


def _with_instruction_file(agent: CopilotEval, file: Path) -> dict[str, CopilotEval]:
    """The arms of ``--vary instructions:FILE``: the agent's working directory without and with the file placed.

    Each arm works in a copy of the agent's working directory (an empty folder when it has none), so
    both share their folder across plays alike; the ``with`` copy has FILE where a user puts it.
    """
    if not file.is_file():
        raise ArmError(f"--vary instructions:{file}: no such file")
    where = placement(file)
    if agent.working_directory is not None and (Path(agent.working_directory) / where).exists():
        raise ArmError(
            f"--vary instructions:{file}: the working directory {agent.working_directory} already has {where}, "
            "so both arms would carry one; compare two agents with --arm NAME=AGENT.yaml instead"
        )
    without, with_file = _working_copy(agent), _working_copy(agent)
    target = with_file / where
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(file, target)
    return {
        "without": agent.with_options(working_directory=without),
        "with": agent.with_options(working_directory=with_file),
    }


def _without_skill(agent: CopilotEval, name: str) -> CopilotEval:
    chosen = [skill for skill in _skills(agent) if skill.name == name or skill.folder.name == name]
    if not chosen:
        names = ", ".join(sorted({s.name for s in _skills(agent)})) or "none"
        folders = ", ".join(str(d) for d in agent.skill_directories) or "none"
        raise ArmError(f"--vary skill:{name}: no skill of that name in skill_directories ({folders}); skills: {names}")
    skill = chosen[0]
    directories = []
    for directory in agent.skill_directories:
        if Path(directory) != skill.mounted:
            directories.append(Path(directory))
        elif skill.folder != skill.mounted:  # a copy of the folder without this skill
            copy = new_working_directory("copilot-eval-lift-skills-") / "skills"
            shutil.copytree(
                skill.mounted,
                copy,
                symlinks=True,
                ignore=lambda d, n: [skill.folder.name] if Path(d) == skill.mounted else [],
            )
            directories.append(copy)
    return agent.with_options(skill_directories=tuple(directories))


def _with_description(agent: CopilotEval, name: str, text: str) -> CopilotEval:
    chosen = [skill for skill in _skills(agent) if skill.name == name]
    if not chosen:
        raise ArmError(f"--vary description:{name}=FILE: no skill named {name!r} in skill_directories")
    skill = chosen[0]
    copy = new_working_directory("copilot-eval-lift-skills-") / "skills"
    shutil.copytree(skill.mounted, copy, symlinks=True)
    target = next(p for p in _skill_files(copy) if p.parent.name == skill.folder.name or p.parent == copy)
    data, body = _frontmatter(target)
    data["description"] = text
    target.write_text(
        "---\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True) + "---\n" + body, encoding="utf-8"
    )
    folders = tuple(copy if Path(d) == skill.mounted else Path(d) for d in agent.skill_directories)
    return agent.with_options(skill_directories=folders)


def vary_arms(agent: CopilotEval, vary: str) -> list[Arm]:
    """The two arms (control, treatment) of one agent for a ``--vary`` spec.

    ``skill:NAME``: without and with that skill folder; ``instructions:FILE``: without and with the
    file placed where a user would in the agent's working directory (``placement``);
    ``description:SKILL=FILE``: the skill's current description and the one in FILE.
    """
    kind, _, value = vary.partition(":")
    if not value:
        raise ArmError(f"--vary {vary!r}: expected skill:NAME, instructions:FILE or description:SKILL=TEXT_FILE")
    if kind == "skill":
        return expectations_of({"without": _without_skill(agent, value), "with": agent})
    if kind == "instructions":
        return expectations_of(_with_instruction_file(agent, Path(value)))
    if kind == "description":
        skill, _, file = value.partition("=")
        if not skill or not file or not Path(file).is_file():
            raise ArmError(f"--vary description:{value}: expected description:SKILL=TEXT_FILE with an existing file")
        text = Path(file).read_text(encoding="utf-8", errors="replace").strip()
        if not text:
            raise ArmError(f"--vary description:{value}: {file} is empty")
        return expectations_of({"current": agent, "new": _with_description(agent, skill, text)})
    raise ArmError(f"--vary {vary!r}: unknown kind {kind!r}; use skill:, instructions: or description:")
