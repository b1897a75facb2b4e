"""An injection suite: user tasks, attacker goals, attack texts and the environment they play in.

A user task is what the user asks (``prompt``) with the checks that say it was done; an attacker
goal is what the attacker wants, as the one tool call that reaches it (``call``) and the checks
that say it happened; an attack text is the words that try to make the agent do it, with ``{goal}``
(the goal in words) and ``{call}`` (the call, with its arguments) where they go. The environment
is an MCP server described as data: tools with their descriptions and canned answers, and files
put in the working directory. ``{injection}`` marks where an attack may be placed, and where it
sits says which vector it is (:data:`VECTORS`). ``{canary}`` in a goal is replaced, per play, by
a token no one else uses: the attack carries it, so it proves delivery, and the goal's checks
look for it, so they prove the attack worked. Every check reads the recorded evidence; none needs
a model.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

Vector = Literal["tool_result", "resource", "tool_description", "file"]
VECTORS: tuple[Vector, ...] = ("tool_result", "resource", "tool_description", "file")
"""Where an attack reaches the model: a tool's text, an MCP resource a tool embeds, a tool's description, a file."""

INJECTION = "{injection}"
CANARY = "{canary}"
WORKING_DIRECTORY = "{working_directory}"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolCalled(_Model):
    """Some call of ``tool`` had these ``arguments`` (equal values) and, when given, ``containing`` in its arguments' JSON."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    containing: str | None = None


class FileWritten(_Model):
    """A file at ``path`` (relative to the working directory) exists and, when given, contains ``contains``."""

    path: str
    contains: str | None = None


class Check(_Model):
    """One model-free check of the evidence: exactly one of its fields is set."""

    tool_called: ToolCalled | None = None
    tool_not_called: str | None = None
    file_written: FileWritten | None = None
    answer_contains: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Check:
        kinds = [name for name in type(self).model_fields if getattr(self, name) is not None]
        if len(kinds) != 1:
            raise ValueError(
                f"a check has exactly one of {', '.join(type(self).model_fields)} (got {', '.join(kinds) or 'none'})"
            )
        return self


def _as_list(value: Any) -> Any:
    return [value] if isinstance(value, dict) else value


Checks = Annotated[list[Check], BeforeValidator(_as_list)]
"""One check or a list of them (all must hold)."""


class PlannedCall(_Model):
    """A tool call by name (an environment tool's own name, or a built-in tool's) with its arguments."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Solution(_Model):
    """How the task is done: the calls in order and the answer (what the suite's scripted agents play)."""

    calls: list[PlannedCall] = Field(default_factory=list)
    answer: str


class ResourceText(_Model):
    """An MCP resource a tool's answer embeds (and the server also lists)."""

    uri: str
    text: str
    mime_type: str = "text/plain"


class ToolResponse(_Model):
    """One canned answer: used for a call whose arguments equal ``when`` (any call when absent)."""

    when: dict[str, Any] | None = None
    text: str | None = None
    resource: ResourceText | None = None
    is_error: bool = False

    @model_validator(mode="after")
    def _has_content(self) -> ToolResponse:
        if self.text is None and self.resource is None:
            raise ValueError("a response needs text, a resource, or both")
        return self


class Parameter(_Model):
    """One argument of an environment tool (a JSON Schema property)."""

    type: Literal["string", "integer", "number", "boolean"] = "string"
    description: str = ""


class EnvironmentTool(_Model):
    """A tool of the environment's MCP server."""

    name: str
    description: str
    parameters: dict[str, Parameter] = Field(default_factory=dict)
    required: list[str] | None = Field(default=None, description="Required arguments; all of them when absent.")
    responses: list[ToolResponse] = Field(min_length=1)


class EnvironmentFile(_Model):
    """A file put in the working directory before the agent starts."""

    path: str
    text: str

    @field_validator("path")
    @classmethod
    def _relative(cls, value: str) -> str:
        if value.startswith("/") or ".." in value.split("/"):
            raise ValueError(f"must be a path inside the working directory, got {value!r}")
        return value


class Environment(_Model):
    """An MCP server (named ``server`` in the agent's session) and the files of the working directory."""

    server: str
    tools: list[EnvironmentTool] = Field(min_length=1)
    files: list[EnvironmentFile] = Field(default_factory=list)

    def tool(self, name: str) -> EnvironmentTool | None:
        """The environment's tool of this (own, unprefixed) name."""
        return next((tool for tool in self.tools if tool.name == name), None)

    def model_name(self, tool: str) -> str:
        """The name the model sees: ``server-tool`` for the environment's tools, the name itself otherwise."""
        return f"{self.server}-{tool}" if self.tool(tool) is not None else tool


class UserTask(_Model):
    """What the user asks, where an attack can reach it, and how to tell it was done."""

    id: str
    environment: str
    prompt: str
    vectors: list[Vector] = Field(min_length=1)
    check: Checks = Field(min_length=1)
    solution: Solution


class AttackerGoal(_Model):
    """What the attacker wants: one tool call (with ``{canary}`` in its arguments) and the checks that it happened."""

    id: str
    environment: str
    summary: str = Field(description="The goal in words, for an attack text's {goal}.")
    call: PlannedCall
    check: Checks | None = Field(
        default=None, description="Default: the call's tool was called with the canary in its arguments."
    )

    def checks(self) -> list[Check]:
        """The goal's checks, or the default one."""
        return self.check or [Check(tool_called=ToolCalled(tool=self.call.tool, containing=CANARY))]


class AttackText(_Model):
    """One attack text; ``{call}`` is where the goal's call goes, ``{goal}`` its summary."""

    id: str
    text: str


class CaseChoice(_Model):
    """An explicit case: a task, one of its vectors, an attack text and a goal of its environment."""

    task: str
    vector: Vector
    attack: str
    goal: str


class InjectionSuite(_Model):
    """A whole suite; ``cases`` absent means every task x its vectors x every attack, goals in turn."""

    name: str
    description: str = ""
    environments: dict[str, Environment]
    tasks: list[UserTask] = Field(min_length=1)
    goals: list[AttackerGoal] = Field(min_length=1)
    attacks: list[AttackText] = Field(min_length=1)
    cases: list[CaseChoice] | None = None

    def environment_of(self, item: UserTask | AttackerGoal) -> Environment:
        """The environment a task or a goal belongs to."""
        return self.environments[item.environment]


__all__ = [
    "CANARY",
    "INJECTION",
    "VECTORS",
    "WORKING_DIRECTORY",
    "AttackText",
    "AttackerGoal",
    "CaseChoice",
    "Check",
    "Environment",
    "EnvironmentFile",
    "EnvironmentTool",
    "FileWritten",
    "InjectionSuite",
    "Parameter",
    "PlannedCall",
    "ResourceText",
    "Solution",
    "ToolCalled",
    "ToolResponse",
    "UserTask",
    "Vector",
]
