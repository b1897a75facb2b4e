"""One play's trigger outcome, decided in one place from recorded facts: the loaded list, the audit, the events.

The precedence, first row that applies:

| outcome | when |
| --- | --- |
| ``setup`` | a skill the play depends on (the expected one, each sibling) is not in the runtime's loaded list, or is disabled there: named with the loader's reason. Never a miss |
| ``error`` | no choice was recorded and the session failed, timed out or ended early (an error is never "did not trigger") |
| ``undelivered`` | the run has no request audit, or a description the play depends on reached no request: the model could not have chosen by it |
| ``chose:<name>`` | the first choice: a skill through the ``skill`` tool or an agent-invoked ``skill.invoked``, a custom agent through the ``task`` tool or ``subagent.selected``; a skill chosen inside a subagent counts for the parent, with its path |
| ``chose:none`` | the session completed with no such choice |

A ``SKILL.md`` read through a file tool (``view``, ``bash cat``) is recorded apart (``read_skill_files``),
never as an invocation. ``skill.invoked`` with a ``context-load`` or ``user-invoked`` trigger is no
model choice either (a custom agent's preloaded skills, a slash command).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from copilot_eval.evidence import CopilotResult
from copilot_eval.evidence.skills import DiscoveredSkill
from copilot_eval.triggers.figures import PlayRecord
from copilot_eval.triggers.trigger_set import NONE, TriggerPrompt

__all__ = [
    "CHOSEN",
    "OUTCOME_KINDS",
    "CatalogueNeeds",
    "Choice",
    "TriggerOutcome",
    "decide_trigger_outcome",
    "first_choice",
    "loaded_skills",
]

OutcomeKind = Literal["chose", "error", "setup", "undelivered"]
OUTCOME_KINDS: tuple[str, ...] = ("chose", "error", "setup", "undelivered")
CHOSEN: Literal["chose"] = "chose"
_FILE_TOOLS = frozenset({"view", "read", "read_file", "bash", "powershell", "grep", "glob", "str_replace_editor"})
_NOT_A_CHOICE = frozenset({"context-load", "user-invoked"})


@dataclass(frozen=True)
class CatalogueNeeds:
    """What a play depends on: skill names (each must be loaded), custom agents, and each one's delivery marker."""

    skills: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()
    markers: Mapping[str, str] = field(default_factory=dict)  # name -> text of its description the audit watches

    @property
    def names(self) -> tuple[str, ...]:
        """Every skill and custom agent the play depends on."""
        return (*self.skills, *self.agents)


@dataclass(frozen=True)
class Choice:
    """A skill or custom agent the model chose, how that was seen and the subagents it was chosen inside."""

    name: str
    kind: Literal["skill", "agent"]
    via: str
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class TriggerOutcome:
    """How one play ended: ``label`` is ``chose:<name>``, ``chose:none``, ``error``, ``setup`` or ``undelivered``."""

    kind: OutcomeKind
    reason: str
    choice: Choice | None = None
    read_skill_files: tuple[str, ...] = ()
    setup_problems: tuple[str, ...] = ()

    @property
    def chosen(self) -> str | None:
        """The name chosen, ``none`` for a completed play with no choice, ``None`` when the play does not count."""
        if self.kind != CHOSEN:
            return None
        return self.choice.name if self.choice is not None else NONE

    @property
    def counts(self) -> bool:
        """Whether the play enters a rate (errors, setup problems and undelivered plays never do)."""
        return self.kind == CHOSEN

    @property
    def label(self) -> str:
        """``chose:<name>``, ``chose:none``, or the kind of a play that does not count."""
        return f"chose:{self.chosen}" if self.kind == CHOSEN else self.kind

    def record(self, prompt: TriggerPrompt, repeat: int, evidence_path: str | None) -> PlayRecord:
        """The play of ``prompt``'s try ``repeat`` that ended so, as the figures and triggers.json keep it."""
        return PlayRecord(
            number=prompt.number,
            repeat=repeat,
            expected=prompt.expected,
            kind=self.kind,
            chosen=self.chosen,
            reason=self.reason,
            evidence_path=evidence_path,
            path=self.choice.path if self.choice is not None else (),
            read_skill_files=self.read_skill_files,
        )


def loaded_skills(result: CopilotResult) -> list[DiscoveredSkill] | None:
    """The runtime's loaded list: the discovery check's, else the last ``session.skills_loaded`` event; None if neither."""
    if result.skill_discovery is not None and result.skill_discovery.complete:
        return list(result.skill_discovery.skills)
    listed: list[DiscoveredSkill] | None = None
    for event in result.raw_events:
        data = event.get("data")
        if event.get("type") == "session.skills_loaded" and isinstance(data, dict) and not event.get("agentId"):
            raw = data.get("skills")
            skills: list[Any] = raw if isinstance(raw, list) else []
            listed = [
                DiscoveredSkill(
                    name=str(s.get("name")),
                    description=s.get("description"),
                    source=s.get("source"),
                    enabled=s.get("enabled"),
                    path=s.get("path"),
                )
                for s in skills
                if isinstance(s, dict) and s.get("name")
            ]
    return listed


def _loader_reason(name: str, result: CopilotResult) -> str:
    discovery = result.skill_discovery
    said = [text for text in (discovery.errors + discovery.warnings if discovery else []) if name in text]
    return (
        said[0]
        if said
        else "the runtime did not list it (missing or broken front matter, or a name that differs from its folder)"
    )


def _setup_problems(needs: CatalogueNeeds, result: CopilotResult) -> list[str]:
    if not needs.skills:
        return []
    listed = loaded_skills(result)
    if listed is None:
        return []  # no loaded list recorded (a session that never opened): the error row decides
    by_name = {skill.name: skill for skill in listed}
    problems = []
    for name in needs.skills:
        skill = by_name.get(name)
        if skill is None:
            problems.append(f"skill {name!r} was not loaded: {_loader_reason(name, result)}")
        elif skill.enabled is False:
            problems.append(f"skill {name!r} is loaded but disabled (disabled_skills, or the runtime's settings)")
    return problems


def _arguments(data: Mapping[str, Any]) -> Mapping[str, Any]:
    arguments = data.get("arguments")
    return arguments if isinstance(arguments, dict) else {}


def _agent_names(events: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    names: dict[str, str] = {}
    for event in events:
        data = event.get("data")
        if event.get("type") == "subagent.started" and isinstance(data, dict) and event.get("agentId"):
            names[str(event["agentId"])] = str(data.get("agentName") or event["agentId"])
    return names


def _event_choice(event: Mapping[str, Any], agents: Iterable[str]) -> tuple[str, Literal["skill", "agent"], str] | None:
    kind, data = event.get("type"), event.get("data")
    if not isinstance(data, dict):
        return None
    if kind == "tool.execution_start" and data.get("toolName") == "skill":
        name = _arguments(data).get("skill")
        return (str(name), "skill", "skill tool") if isinstance(name, str) and name else None
    if kind == "skill.invoked" and data.get("trigger") not in _NOT_A_CHOICE and data.get("name"):
        return str(data["name"]), "skill", "skill.invoked"
    if kind == "tool.execution_start" and data.get("toolName") == "task":
        name = _arguments(data).get("agent_type")
        return (str(name), "agent", "task tool") if name in set(agents) else None
    if kind in ("subagent.selected", "subagent.started") and data.get("agentName") in set(agents):
        return str(data["agentName"]), "agent", kind
    return None


def first_choice(result: CopilotResult, *, agents: Iterable[str] = ()) -> Choice | None:
    """The first skill or custom-agent choice recorded in the session's events, with its subagent path.

    ``agents`` are the custom agents of the catalogue: a ``task`` call of a built-in agent type is
    not a choice of the catalogue, but a skill its subagent chooses is (counted for the parent).
    """
    known = tuple(agents)
    names = _agent_names(result.raw_events)
    for event in result.raw_events:
        found = _event_choice(event, known)
        if found is not None:
            agent_id = event.get("agentId")
            path = (names.get(str(agent_id), str(agent_id)),) if agent_id else ()
            return Choice(found[0], found[1], found[2], path)
    return None


def _read_skill_files(result: CopilotResult, skills: Iterable[DiscoveredSkill]) -> tuple[str, ...]:
    paths = {skill.path: skill.name for skill in skills if skill.path}
    read: list[str] = []
    for event in result.raw_events:
        data = event.get("data")
        if event.get("type") != "tool.execution_start" or not isinstance(data, dict):
            continue
        if data.get("toolName") not in _FILE_TOOLS:
            continue
        text = " ".join(str(value) for value in _arguments(data).values())
        read += [name for path, name in paths.items() if path in text and name not in read]
    return tuple(read)


def _undelivered(needs: CatalogueNeeds, result: CopilotResult) -> str | None:
    if not needs.markers:
        return None
    if result.request_audit is None:
        return "no request audit: whether the descriptions reached the model cannot be told"
    missing = [name for name, marker in needs.markers.items() if result.model_was_sent(marker) is not True]
    if missing:
        return f"the description of {', '.join(repr(n) for n in sorted(missing))} reached no request the model was sent"
    return None


def decide_trigger_outcome(result: CopilotResult, needs: CatalogueNeeds) -> TriggerOutcome:
    """The play's outcome (module docstring: the precedence), with its reason and the facts it came from."""
    listed = loaded_skills(result) or []
    read = _read_skill_files(result, listed)
    problems = _setup_problems(needs, result)
    if problems:
        return TriggerOutcome("setup", "; ".join(problems), setup_problems=tuple(problems), read_skill_files=read)
    choice = first_choice(result, agents=needs.agents)
    if choice is None and not result.success:
        return TriggerOutcome(
            "error", result.error or f"the session did not complete ({result.stop_reason})", None, read
        )
    not_delivered = _undelivered(needs, result)
    if not_delivered is not None:
        return TriggerOutcome("undelivered", not_delivered, choice, read)
    if choice is None:
        return TriggerOutcome(CHOSEN, "the session completed with no skill or custom-agent choice", None, read)
    inside = f" inside {' > '.join(choice.path)}" if choice.path else ""
    return TriggerOutcome(CHOSEN, f"chose {choice.kind} {choice.name!r} through the {choice.via}{inside}", choice, read)
