"""CopilotEval: the immutable description of an agent under test."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from copilot_eval.agent.agent_file import agent_file_error, read_agent_file, validation_problems
from copilot_eval.agent.custom_agent import CustomAgent
from copilot_eval.agent.extra_handlers import extra_handler_problems
from copilot_eval.agent.mcp_config import mcp_server_problems
from copilot_eval.agent.sampling_policy import parse_sampling
from copilot_eval.agent.user_answers import parse_user_answers
from copilot_eval.models.base import ModelSource
from copilot_eval.models.byok import ByokProvider

PermissionPolicy = Literal["approve_all", "deny_all"] | Callable[..., Any]
MIN_SESSION_AI_CREDITS = 30.0  # the runtime's own minimum for a session limit (runtime 1.0.102)

ReasoningEffort = Literal["low", "medium", "high", "xhigh"]

# The fields that list names, each with the entries it refuses and what to write instead
# (`{entry}` is the refused entry); the message names the field and the entry's index.
_ENTRY_RULES: dict[str, tuple[Callable[[str], bool], str]] = {
    "pass_env": (
        lambda name: not name.strip() or "=" in name,
        "expected a variable name or pattern (AWS_PROFILE, MYAPP_*), got {entry!r}",
    ),
    "audit_markers": (lambda marker: not marker.strip(), "must not be blank"),
    "stop_at_tools": (
        lambda name: not name.strip() or name.strip() == "task:",
        "give a tool name, or task:AGENT for one agent type",
    ),
}


# The SDK's CopilotClientMode, spelled here so that the runtime's process modules can name it without
# loading the SDK: "copilot-cli" (the runtime's own tools and prompt) or "empty" (only what the agent gives).
ClientMode = Literal["copilot-cli", "empty"]


class CopilotEval(BaseModel):
    """How to run an agent: model, instructions, tools, limits and runtime settings.

    Invalid values fail at construction with a message naming the field. ``model`` is a model
    name (GitHub-hosted, or served by ``provider``), or a model source (``ScriptedModel``,
    ``FunctionModel``, ``Replay``, ``Recorder``: see ``copilot_eval.models.base.ModelSource``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    name: str = "agent"
    model: Any = None
    provider: ByokProvider | None = None
    instructions: str | None = None
    system_message_mode: Literal["append", "replace"] = "append"
    reasoning_effort: ReasoningEffort | None = None
    working_directory: Path | None = None
    allowed_tools: tuple[str, ...] | None = None
    excluded_tools: tuple[str, ...] | None = None
    tools: tuple[Any, ...] = ()
    mcp_servers: Mapping[str, Mapping[str, Any]] = Field(default_factory=dict)
    custom_agents: tuple[CustomAgent, ...] = ()
    skill_directories: tuple[Path, ...] = ()
    # A folder standing in for the user's ~/.copilot (copilot-instructions.md, instructions/): copied
    # into each session's own COPILOT_HOME, the only place the runtime reads user-level instructions.
    user_instructions_dir: Path | None = None
    disabled_skills: tuple[str, ...] = ()
    timeout_s: float = Field(default=120.0, gt=0)
    max_tool_calls: int | None = Field(default=None, ge=0)
    max_turns: int | None = Field(default=None, ge=1)
    # Tools whose start ends the run as completed (the root's or a subagent's call): a trigger
    # evaluation measures the choice of a skill or custom agent, not the rest of the task.
    stop_at_tools: tuple[str, ...] = ()
    # Usage budgets over the whole session (docs/cost.md): tokens (input plus output) and premium
    # requests are counted by the harness from the runtime's usage reports; AI credits go to the
    # runtime's own session limit.
    max_tokens: int | None = Field(default=None, ge=1)
    max_premium_requests: float | None = Field(default=None, ge=0)
    max_ai_credits: float | None = None
    permission_policy: PermissionPolicy = "approve_all"
    # Questions to the user (ask_user, MCP elicitation) and MCP sampling: see agent/user_answers.py.
    user_answers: Any = None
    sampling: Any = "decline"
    audit_requests: bool = False
    # Texts the audit looks for in what each request gives the model (a canary, an injected
    # instruction's marker): proof that something did, or did not, reach the model.
    audit_markers: tuple[str, ...] = ()
    # The runtime's own trace records message content, tool arguments and results only when asked:
    # they can be large and hold what the agent saw (redacted like all evidence).
    capture_trace_content: bool = False
    # The runtime, its MCP servers and the agent's shell get the whole environment unless
    # minimal_env: then only what the runtime needs, plus the pass_env names (fnmatch patterns).
    minimal_env: bool = False
    pass_env: tuple[str, ...] = ()
    client_mode: ClientMode = "copilot-cli"
    streaming: bool = False
    runtime_path: Path | None = None
    extra_config: Mapping[str, Any] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value

    @field_validator("model")
    @classmethod
    def _model_kind(cls, value: Any) -> Any:
        if value is None or isinstance(value, str):
            if isinstance(value, str) and not value.strip():
                raise ValueError("must not be blank")
            return value

        if isinstance(value, ModelSource):
            return value
        raise ValueError(
            f"must be a model name or a model source (ScriptedModel, FunctionModel, Replay, Recorder; "
            f"see copilot_eval.models.base.ModelSource), got {type(value).__name__}"
        )

    @field_validator("mcp_servers", mode="before")
    @classmethod
    def _mcp_servers_shape(cls, value: Any) -> Any:
        # Checked here, not by the runtime: a malformed entry would otherwise hang until timeout_s.
        problems = mcp_server_problems(value)
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @field_validator("tools")
    @classmethod
    def _tools_callable(cls, value: tuple[Any, ...]) -> tuple[Any, ...]:
        for index, tool in enumerate(value):
            if not callable(tool) and not hasattr(tool, "handler"):
                raise ValueError(f"tools[{index}]: must be a define_tool() tool or a Python callable")
        return value

    @field_validator("max_ai_credits")
    @classmethod
    def _runtime_credit_minimum(cls, value: float | None) -> float | None:
        # The runtime refuses a smaller session limit when the session is created (runtime 1.0.102:
        # "Minimum session limit is 30 AI credits"); refused here, before any runtime starts.
        if value is not None and value < MIN_SESSION_AI_CREDITS:
            raise ValueError(
                f"the runtime's smallest session limit is {MIN_SESSION_AI_CREDITS:g} AI credits, got {value:g}; "
                "for a smaller budget use max_tokens or max_premium_requests"
            )
        return value

    @field_validator("user_instructions_dir")
    @classmethod
    def _user_folder(cls, value: Path | None) -> Path | None:
        if value is not None and not value.is_dir():
            raise ValueError(
                f"{value} is not a folder (it stands in for ~/.copilot: copilot-instructions.md, instructions/)"
            )
        return value

    @field_validator(*_ENTRY_RULES)
    @classmethod
    def _entries_named(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        refused, problem = _ENTRY_RULES[info.field_name or ""]
        for index, entry in enumerate(value):
            if refused(entry):
                raise ValueError(f"{info.field_name}.{index}: {problem.format(entry=entry)}")
        return value

    @field_validator("permission_policy")
    @classmethod
    def _policy(cls, value: Any) -> Any:
        if isinstance(value, str) and value not in ("approve_all", "deny_all"):
            raise ValueError("must be 'approve_all', 'deny_all' or a callable")
        return value

    @field_validator("extra_config")
    @classmethod
    def _extra_handlers(cls, value: Mapping[str, Any]) -> Mapping[str, Any]:
        problems = extra_handler_problems(value)
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @field_validator("user_answers", mode="before")
    @classmethod
    def _user_answers(cls, value: Any) -> Any:
        return parse_user_answers(value)

    @field_validator("sampling", mode="before")
    @classmethod
    def _sampling(cls, value: Any) -> Any:
        return parse_sampling(value)

    @model_validator(mode="after")
    def _consistent(self) -> CopilotEval:
        if self.system_message_mode == "replace" and not self.instructions:
            raise ValueError("system_message_mode='replace' needs instructions (the whole system message)")
        if self.allowed_tools is not None and self.excluded_tools is not None:
            overlap = set(self.allowed_tools) & set(self.excluded_tools)
            if overlap:
                raise ValueError(f"allowed_tools and excluded_tools both name {sorted(overlap)}")
        if self.pass_env and not self.minimal_env:
            raise ValueError(
                "pass_env only applies with minimal_env=True (without it the runtime gets every variable already)"
            )
        if self.audit_markers and not self.audit_requests:
            raise ValueError("audit_markers needs audit_requests=True (the audit is what reads the requests)")
        if self.client_mode == "empty" and self.allowed_tools is None:
            raise ValueError("client_mode='empty' needs an explicit allowed_tools list")
        return self

    def with_options(self, **changes: Any) -> CopilotEval:
        """A copy with some fields changed, validated again."""
        return type(self).model_validate({**self.__dict__, **changes})

    @classmethod
    def from_file(cls, path: str | Path) -> CopilotEval:
        """Load an agent from a YAML agent file (see docs/agent-file.md); every problem at once."""
        fields, problems = read_agent_file(path, known=cls.model_fields)
        agent = None
        try:
            agent = cls(**fields)
        except ValidationError as error:
            problems.extend(validation_problems(error))
        if problems or agent is None:
            raise agent_file_error(path, problems)
        return agent


def load_agent_file(path: str | Path) -> CopilotEval:
    """Read an agent YAML file into a CopilotEval; ``AgentFileError`` names the file and fields."""
    return CopilotEval.from_file(path)


__all__ = ["CopilotEval", "load_agent_file"]
