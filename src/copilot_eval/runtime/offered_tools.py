"""Which tools the model is offered: the agent's real session, asked once, read from the request.

The agent runs through the real runtime with its MCP servers, Python tools and settings, but its
model is replaced by a one-line ScriptedModel (same model name, so the runtime picks tools as it
would for that model) that records the first request. The tool list of that request is what the
model would be offered: built-in tools, the agent's Python tools, and MCP tools named
``<server>-<tool>``. No real model is called.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence import CopilotResult
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runtime.requests.tool_definitions import definition_hash, tool_definitions_of
from copilot_eval.runtime.session.runner import run_copilot

ToolKind = Literal["built-in", "python", "mcp"]
LISTING_PROMPT = "List the tools you can use."


# Alike in shape only to grading/protocol.py's Grade (a frozen record of a few fields); unrelated meaning.
@dataclass(frozen=True)
class OfferedTool:
    """One tool of the model's request: its name as the model sees it, where it comes from, its schema."""

    name: str
    description: str
    kind: ToolKind
    server: str | None = None
    parameters: Any = None

    @property
    def sha256(self) -> str:
        """The hash of the tool's definition as the model is given it (the one hash, ``definition_hash``)."""
        return definition_hash(self.name, self.description, self.parameters)


@dataclass(frozen=True)
class Delegate:
    """A custom agent the model can hand work to: its name as the ``task`` tool's ``agent_type``, and that tool's arguments."""

    name: str
    description: str | None
    arguments: tuple[str, ...] = ()  # the task tool's required arguments, as the model was offered them
    skipped: str | None = None  # why the runtime would not load it (then it is never offered)

    def call(self) -> str:
        """``task(agent_type="reviewer", description=..., prompt=...)``: how the model delegates to it."""
        rest = [f"{argument}=..." for argument in self.arguments if argument != TASK_AGENT_ARGUMENT]
        return f"{TASK_TOOL}({', '.join([f'{TASK_AGENT_ARGUMENT}={self.name!r}', *rest])})"


TASK_TOOL = "task"
TASK_AGENT_ARGUMENT = "agent_type"


@dataclass
class ToolListing:
    """The tools offered, the custom agents the model can delegate to, the run that found them, and warnings."""

    tools: list[OfferedTool] = field(default_factory=list)
    result: CopilotResult | None = None
    warnings: list[str] = field(default_factory=list)
    delegates: list[Delegate] = field(default_factory=list)


def delegates_of(agent: CopilotEval, tools: list[OfferedTool]) -> tuple[list[Delegate], list[str]]:
    """The agent's custom agents as the ``task`` tool reaches them, and a warning when that tool was not offered."""
    task = next((tool for tool in tools if tool.name == TASK_TOOL), None)
    schema = task.parameters if task is not None and isinstance(task.parameters, dict) else {}
    required = schema.get("required")
    arguments = tuple(str(name) for name in required) if isinstance(required, list) else ()
    arguments = arguments or (TASK_AGENT_ARGUMENT,)
    found = [
        Delegate(custom.name, custom.description, arguments if custom.skipped is None else (), custom.skipped)
        for custom in agent.custom_agents
    ]
    warnings = []
    if found and tools and task is None:
        warnings.append(
            f"the model was not offered the {TASK_TOOL!r} tool: it cannot delegate to the custom agents "
            f"{', '.join(d.name for d in found)} (an `allowed_tools` or `excluded_tools` setting may hide it)"
        )
    return found, warnings


class _Recorder:
    """A request handler that keeps each request body and lets the scripted endpoint answer."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.bodies: list[dict[str, Any]] = []

    async def send_request(self, request: Any, ctx: Any) -> Any:
        try:
            self.bodies.append(json.loads(request.content or b"{}"))
        except ValueError:
            pass
        return await self.inner.send_request(request, ctx)

    async def open_websocket(self, ctx: Any) -> Any:
        return await self.inner.open_websocket(ctx)


class _ListingModel:
    """A model source (``copilot_eval.models.base.ModelSource``) that answers "ok" and records requests."""

    live = False  # never a real model: the listing works under the no-live-models guard too
    description = "scripted (tool listing)"

    def __init__(self, name: str) -> None:
        self._scripted = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "ok"}]}]}, name=name)
        self.recorders: list[_Recorder] = []

    @property
    def session_model(self) -> str:
        """The model name the session is told."""
        return self._scripted.session_model

    def provider_config(self) -> dict[str, Any]:
        """The scripted model's provider settings."""
        return self._scripted.provider_config()

    def endpoint(self, *, working_directory: str | None = None) -> _Recorder:
        """The recording endpoint of one run."""
        recorder = _Recorder(self._scripted.endpoint(working_directory=working_directory))
        self.recorders.append(recorder)
        return recorder


def _python_tool_names(agent: CopilotEval) -> set[str]:
    return {str(getattr(tool, "name", None) or getattr(tool, "__name__", "")) for tool in agent.tools}


def classify(name: str, description: str, agent: CopilotEval, parameters: Any = None) -> OfferedTool:
    """Say where an offered tool comes from: an MCP server (``server-tool``), Python, or built in."""
    for server in sorted(agent.mcp_servers, key=len, reverse=True):
        if name.startswith(f"{server}-"):
            return OfferedTool(name, description, "mcp", server, parameters)
    kind: ToolKind = "python" if name in _python_tool_names(agent) else "built-in"
    return OfferedTool(name, description, kind, parameters=parameters)


def filter_warnings(agent: CopilotEval, tools: list[OfferedTool]) -> list[str]:
    """A server ``tools:`` filter entry that matches no offered tool of that server."""
    warnings = []
    for server, config in agent.mcp_servers.items():
        offered = {tool.name.removeprefix(f"{server}-") for tool in tools if tool.server == server}
        for entry in config.get("tools") or []:
            if entry == "*" or entry in offered:
                continue
            hint = ""
            if entry.startswith(f"{server}-") and entry.removeprefix(f"{server}-") in offered | {""}:
                hint = f"; the filter takes the server's own names: {entry.removeprefix(f'{server}-')!r}"
            elif entry.startswith(f"{server}-"):
                hint = f"; the filter takes the server's own names, without the {server + '-'!r} prefix"
            warnings.append(f"mcp_servers.{server}.tools: {entry!r} matches no tool of server {server!r}{hint}")
    return warnings


async def list_offered_tools(agent: CopilotEval) -> ToolListing:
    """Run the agent once with a recording scripted model and return the tools of its request."""
    name = agent.model if isinstance(agent.model, str) else getattr(agent.model, "session_model", "scripted-model")
    model = _ListingModel(name)
    listing_agent = agent.with_options(
        model=model, provider=None, audit_requests=False, max_turns=None, max_tool_calls=None
    )
    result = await run_copilot(listing_agent, LISTING_PROMPT)
    bodies = [body for recorder in model.recorders for body in recorder.bodies]
    listing = ToolListing(result=result, warnings=list(result.warnings))
    if bodies:
        listing.tools = [classify(d.name, d.description, agent, d.parameters) for d in tool_definitions_of(bodies[0])]
        listing.warnings.extend(filter_warnings(agent, listing.tools))
    listing.delegates, warnings = delegates_of(agent, listing.tools)
    listing.warnings.extend(warnings)
    return listing
