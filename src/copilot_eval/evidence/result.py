"""CopilotResult: everything one run recorded. A description of the execution, never a verdict."""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.bounded_json import load_json_file
from copilot_eval.evidence.audit import RequestAuditRecord
from copilot_eval.evidence.capture_error import CaptureError
from copilot_eval.evidence.customizations import CustomizationFile
from copilot_eval.evidence.hook import HookDecision
from copilot_eval.evidence.host_request import HostRequest, HostRequestKind
from copilot_eval.evidence.mcp_server import McpServerStatus
from copilot_eval.evidence.permission import PermissionRecord
from copilot_eval.evidence.phase_times import PhaseTimes
from copilot_eval.evidence.played_on import PlayedOn
from copilot_eval.evidence.protocol import CitedSource, KnowledgeSeen
from copilot_eval.evidence.rate_limit import RateLimit
from copilot_eval.evidence.runtime_trace import RuntimeTrace
from copilot_eval.evidence.skills import SkillDiscovery
from copilot_eval.evidence.stop_reason import StopReason
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.evidence.trajectory.calls import ObservedCall
from copilot_eval.evidence.trajectory.check import check_trajectory
from copilot_eval.evidence.trajectory.from_result import observed_calls
from copilot_eval.evidence.transcript import Transcript, copilot_transcript
from copilot_eval.evidence.turn import Turn
from copilot_eval.evidence.usage import ModelPrice, UsageEntry, estimate_cost, sum_known
from copilot_eval.redaction import redact, redact_data

_Number = TypeVar("_Number", int, float)  # a tree total keeps the kind of what it adds: tokens or credits

SCHEMA_VERSION = 4
"""Version of the native JSON form. 2 added content items, tool progress, host requests and each
tool call's result type, message sent to the model and exception. 3 counts the runtime's
compaction calls in ``usage`` (entries of purpose ``compaction``) and so in the totals, and adds
hook decisions and a rejection's feedback, the runtime's own trace (``runtime_trace``, its spans
saved beside the JSON) and the time by phase (``phase_times``). 4 adds the customization files and
whether each reached the model (``customizations``). Files of older versions are still
read (what they lack is empty or unknown: they never recorded it; their usage entries are all
turns)."""
READABLE_VERSIONS = frozenset({1, 2, 3, 4})
TRACE_SUFFIX = ".trace.jsonl"
"""The runtime trace of ``x.json`` is saved as ``x.trace.jsonl``, one span per line."""


class SubagentInvocation(BaseModel):
    """A runtime subagent (the ``task`` tool) or a custom-agent dispatch.

    ``result`` is the child's own evidence when its events were captured; ``None`` means no child
    trace was captured, and none is invented.
    """

    # Defined here, not in its own module, because it contains a CopilotResult: one module, no loop.

    invocation_id: str | None = None
    name: str | None = None
    kind: str | None = None
    status: str | None = None
    duration_ms: float | None = None
    total_tokens: int | None = None
    total_tool_calls: int | None = None
    parent_call_id: str | None = None
    error: str | None = None
    result: CopilotResult | None = None
    details: dict[str, Any] | None = None


class CopilotResult(BaseModel):
    """What happened in one session: turns, tool calls, usage, children, settings, requests.

    ``success`` says the session executed to the end; it says nothing about whether the task was
    done. Check the task with your own assertions and ``evidence_complete`` before trusting tool
    records.
    """

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")

    schema_version: int = SCHEMA_VERSION
    success: bool = False
    error: str | None = None
    stop_reason: StopReason | None = None
    # Set by capture when the run ended on the model's rate limit: not a verdict, play it again.
    rate_limit: RateLimit | None = None
    session_id: str | None = None
    agent_name: str | None = None
    prompt: str | None = None
    turns: list[Turn] = Field(default_factory=list)
    all_tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: list[UsageEntry] = Field(default_factory=list)
    model_used: str | None = None
    session_premium_requests: float | None = None
    subagent_invocations: list[SubagentInvocation] = Field(default_factory=list)
    permissions: list[PermissionRecord] = Field(default_factory=list)
    # What each session hook handler (ours and the user's extra_config hooks) decided, in order;
    # None when no runner recorded it (a saved event log).
    hook_decisions: list[HookDecision] | None = None
    host_requests: list[HostRequest] = Field(default_factory=list)  # questions, elicitation, sampling
    capture_errors: list[CaptureError] = Field(default_factory=list)
    mcp_servers: list[McpServerStatus] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    tool_calls_admitted: int | None = None  # calls the tool budget let through; None without max_tool_calls
    request_audit: list[RequestAuditRecord] | None = None
    # The tools the model was offered: name as it saw it -> SHA-256 of the definition (name,
    # description, parameters) in the first request that offered tools; None where the run did not
    # read its requests (a real model without audit_requests).
    tool_definitions: dict[str, str] | None = None
    skill_discovery: SkillDiscovery | None = None
    # The repository's and the user's instruction files, AGENTS.md and prompt files, each with whether
    # it reached the model, judged from the request audit; None: unknown (the audit was off).
    customizations: list[CustomizationFile] | None = None
    configuration: dict[str, Any] | None = None
    working_directory: str | None = None
    duration_ms: float | None = None
    runtime_version: str | None = None
    comparison_role: str | None = None
    played_on: PlayedOn | None = None  # set by a distributed executor; None: played where the run was written
    # The runtime's own OpenTelemetry spans of this session; None: the runtime wrote none (unknown).
    runtime_trace: RuntimeTrace | None = None
    phase_times: PhaseTimes | None = None  # where the time went, read from runtime_trace
    raw_events: list[dict[str, Any]] = Field(default_factory=list)

    # -- responses -------------------------------------------------------------------------
    @property
    def all_responses(self) -> list[str]:
        """Every non-empty assistant message of this session, in order."""
        return [t.content for t in self.turns if t.role == "assistant" and t.content.strip()]

    @property
    def final_response(self) -> str | None:
        """The last non-empty assistant message, or ``None`` when the agent said nothing."""
        responses = self.all_responses
        return responses[-1] if responses else None

    @property
    def responses_per_prompt(self) -> list[str | None]:
        """Per user prompt, in order, the last non-empty assistant message answering it (or ``None``).

        A conversation played from several prompts in one session is graded turn by turn; a prompt
        the session never got to (it failed earlier) has no entry, one left unanswered has ``None``.
        """
        answers: list[str | None] = []
        for turn in self.turns:
            if turn.role == "user":
                answers.append(None)
            elif answers and turn.content.strip():
                answers[-1] = turn.content
        return answers

    @property
    def citations(self) -> list[CitedSource]:
        """Always empty: the runtime's answers carry no citations (what a tool returned is in its call)."""
        return []

    def knowledge_seen(self, *, turn: int) -> KnowledgeSeen:
        """Always empty: a runtime agent cites nothing and runs no knowledge search (what its tools returned is in their calls)."""
        return KnowledgeSeen()

    # -- permissions -----------------------------------------------------------------------
    @property
    def permission_requested(self) -> bool:
        """Whether the runtime asked for any permission during this session."""
        return bool(self.permissions)

    # -- tools -----------------------------------------------------------------------------
    def tool_calls_for(self, name: str) -> list[ToolCall]:
        """Calls of one tool in this session, in order."""
        return [call for call in self.all_tool_calls if call.name == name]

    def tool_was_called(self, name: str) -> bool:
        """Whether the tool was called at least once (not whether it succeeded)."""
        return bool(self.tool_calls_for(name))

    def tool_call_count(self, name: str) -> int:
        """How many times the tool was called."""
        return len(self.tool_calls_for(name))

    def tool_was_called_with(self, name: str, **arguments: Any) -> bool:
        """Whether some call of the tool had all the given arguments with equal values."""
        for call in self.tool_calls_for(name):
            args = call.arguments or {}
            if all(key in args and args[key] == value for key, value in arguments.items()):
                return True
        return False

    def tool_returned_resource(self, uri: str, *, tool: str | None = None) -> bool:
        """Whether some call (of ``tool``, when given) returned a link to, or embedded, this resource."""
        calls = self.tool_calls_for(tool) if tool is not None else self.all_tool_calls
        return any(call.returned_resource(uri) for call in calls)

    # -- what reached the model -----------------------------------------------------------
    def model_was_sent(self, marker: str) -> bool | None:
        """Whether some request gave ``marker`` to the model (``audit_markers``); None when it was not watched.

        Read from the request audit: ``False`` means the marker was watched and no request that
        was sent carried it (also when no request was sent at all); ``None`` means this run cannot
        say (no audit, or the marker was not among ``audit_markers``).
        """
        if self.request_audit is None:
            return None
        watched = [record.markers for record in self.request_audit if record.markers is not None]
        if not self.request_audit:
            configured = (self.configuration or {}).get("audit_markers") or []
            return False if marker in configured else None
        if not watched or any(marker not in found for found in watched):
            return None
        return any(found[marker] for found in watched)

    # -- requests to the host --------------------------------------------------------------
    def instructions_delivered(self, path_or_glob: str) -> bool | None:
        """Whether every customization file matching ``path_or_glob`` reached the model.

        Matched against ``result.customizations`` paths (``fnmatch``: ``*`` crosses folders). False
        when no file matches (nothing by that name reached the model); None when unknown (the
        request audit was off).
        """
        if self.customizations is None:
            return None
        matching = [item for item in self.customizations if fnmatch.fnmatchcase(item.path, path_or_glob)]
        if any(item.status is None for item in matching):
            return None
        return bool(matching) and all(item.status == "delivered" for item in matching)

    # Alike in shape to ToolCall.resource_links and its kin: one-line filters, each with its own public name.
    @property
    def questions_asked(self) -> list[HostRequest]:
        """The agent's own questions to the user (the ``ask_user`` tool), in order."""
        return self._requests_of("question")

    @property
    def elicitations(self) -> list[HostRequest]:
        """MCP servers' requests for user input (forms and URLs), in order."""
        return self._requests_of("elicitation")

    @property
    def sampling_requests(self) -> list[HostRequest]:
        """MCP servers' requests for LLM sampling, in order."""
        return self._requests_of("sampling")

    def _requests_of(self, kind: HostRequestKind) -> list[HostRequest]:
        return [request for request in self.host_requests if request.kind == kind]

    def user_was_asked(self, text: str) -> bool:
        """Whether a question or an elicitation put to the user contained ``text`` (case-insensitive)."""
        wanted = text.casefold()
        return any(
            wanted in (request.message or "").casefold()
            for request in self.host_requests
            if request.kind in ("question", "elicitation")
        )

    # The function itself, so its whole signature is the method's: ``result.trajectory(steps, turn=2)``.
    trajectory = check_trajectory

    def observed_steps(self, *, turn: int | None = None, subagent_calls: bool = True) -> list[ObservedCall]:
        """The session's calls as one trajectory (of user turn ``turn`` when given), subagents as steps."""
        return observed_calls(self, turn=turn, subagent_calls=subagent_calls)

    def transcript(self) -> Transcript:
        """Prompts, answers, calls and their results in the order the runtime reported them."""
        return copilot_transcript(self)

    # -- evidence --------------------------------------------------------------------------
    @property
    def evidence_complete(self) -> bool:
        """No capture error, every tool call fully evidenced, and the same for every child."""
        if self.capture_errors or not all(c.evidence_complete for c in self.all_tool_calls):
            return False
        for invocation in self.subagent_invocations:
            if invocation.result is not None and not invocation.result.evidence_complete:
                return False
        return True

    @property
    def execution_results(self) -> list[CopilotResult]:
        """This result and every captured descendant result, depth first, each once."""
        return list(self._walk())

    def _walk(self) -> Iterator[CopilotResult]:
        seen: set[int] = set()
        stack: list[CopilotResult] = [self]
        while stack:
            current = stack.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            yield current
            children = [i.result for i in current.subagent_invocations if i.result is not None]
            stack.extend(reversed(children))

    # -- usage -----------------------------------------------------------------------------
    @property
    def all_usage(self) -> list[UsageEntry]:
        """Usage of this session and of every captured descendant, each entry once."""
        return [entry for result in self._walk() for entry in result.usage]

    def _tree_total(self, count: Callable[[UsageEntry], _Number | None]) -> _Number | None:
        results = self.execution_results
        if any(not result.usage for result in results):
            return None
        return sum_known(count(entry) for entry in self.all_usage)

    @property
    def total_input_tokens(self) -> int | None:
        """Input tokens of the whole execution tree, or ``None`` when any count is unknown."""
        return self._tree_total(lambda entry: entry.input_tokens)

    @property
    def total_output_tokens(self) -> int | None:
        """Output tokens of the whole execution tree, or ``None`` when any count is unknown."""
        return self._tree_total(lambda entry: entry.output_tokens)

    @property
    def total_tokens(self) -> int | None:
        """Input plus output tokens, or ``None`` when either is unknown."""
        return sum_known([self.total_input_tokens, self.total_output_tokens])

    @property
    def token_usage(self) -> dict[str, int]:
        """The known token totals; unknown totals are left out rather than reported as 0."""
        totals = {
            "input_tokens": self.total_input_tokens,
            "output_tokens": self.total_output_tokens,
            "total_tokens": self.total_tokens,
        }
        return {key: value for key, value in totals.items() if value is not None}

    @property
    def total_premium_requests(self) -> float | None:
        """Premium requests of the tree as the runtime reported them; ``None`` when unreported."""
        return sum_known(r.session_premium_requests for r in self.execution_results)

    @property
    def total_ai_credits(self) -> float | None:
        """AI credits of the whole tree as the runtime counted them; ``None`` when any call was not counted."""
        return self._tree_total(lambda entry: entry.ai_credits)

    def estimated_cost(self, prices: Mapping[str, ModelPrice]) -> float | None:
        """Cost estimate of the tree from an explicit price table; ``None`` when not knowable."""
        results = self.execution_results
        if any(not result.usage for result in results):
            return None
        return estimate_cost(self.all_usage, prices)

    # -- files -----------------------------------------------------------------------------
    def _workdir(self) -> Path:
        if self.working_directory is None:
            raise ValueError("this result has no working directory recorded")
        return Path(self.working_directory)

    def file(self, relative_path: str) -> str:
        """Text of a file in the run's working directory (raises FileNotFoundError if absent)."""
        return (self._workdir() / relative_path).read_text(encoding="utf-8")

    def file_exists(self, relative_path: str) -> bool:
        """Whether a file exists in the run's working directory."""
        return (self._workdir() / relative_path).is_file()

    def files_matching(self, pattern: str) -> list[str]:
        """Working-directory files matching a glob such as ``**/*.py``, relative and sorted."""
        root = self._workdir()
        return sorted(str(p.relative_to(root)) for p in root.glob(pattern) if p.is_file())

    # -- native JSON -----------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write this result as native JSON, atomically (a crash leaves no half-written file).

        Registered secrets are replaced by their markers (see :mod:`copilot_eval.redaction`).
        """
        data = result_to_dict(self)
        if self.runtime_trace is not None and self.runtime_trace.spans:
            # The spans go beside the JSON, one per line: a session's trace is a few hundred spans
            # (about 120 kB), and a line per span is what trace tools read.
            trace_path = trace_file_for(path)
            lines = [json.dumps(redact_data(span.to_line()), ensure_ascii=False) for span in self.runtime_trace.spans]
            write_text_atomically(trace_path, "\n".join(lines) + "\n")
            data["runtime_trace"] = {**data["runtime_trace"], "spans": [], "file": trace_path.name}
        text = json.dumps(data, indent=2, ensure_ascii=False)
        return write_text_atomically(path, text + "\n")

    @classmethod
    def load(cls, path: str | Path) -> CopilotResult:
        """Read a result written by :meth:`save` (this version or an older one), refusing unknown versions."""
        data = load_json_file(path)  # size and depth bounded: evidence may come from someone else's run folder
        version = data.get("schema_version") if isinstance(data, dict) else None
        if version not in READABLE_VERSIONS:
            readable = ", ".join(str(v) for v in sorted(READABLE_VERSIONS))
            raise ValueError(f"{path}: schema_version {version!r} is not supported (this version reads {readable})")
        data.pop("derived", None)
        trace = data.get("runtime_trace")
        if isinstance(trace, dict) and trace.get("file") and not trace.get("spans"):
            trace_path = Path(path).parent / str(trace["file"])
            if not trace_path.is_file():
                raise ValueError(
                    f"{path}: runtime_trace: the spans file {trace_path} is missing; copy it with the evidence JSON"
                )
            spans = RuntimeTrace.from_lines(trace_path.read_text(encoding="utf-8").splitlines()).spans
            data["runtime_trace"] = {**trace, "spans": [span.model_dump() for span in spans]}
        return cls.model_validate(upgrade_result_data(data))

    def summary(self) -> str:
        """A one-line human description of the execution (not a verdict on the task)."""
        tools = len(self.all_tool_calls)
        state = "ok" if self.success else f"failed ({self.stop_reason}: {self.error})"
        return redact(f"{state}; {len(self.turns)} turns, {tools} tool calls, tokens={self.token_usage}")


def trace_file_for(path: str | Path) -> Path:
    """Where the runtime trace of the evidence file ``path`` is saved: ``x.json`` -> ``x.trace.jsonl``."""
    target = Path(path)
    return target.with_name(target.stem + TRACE_SUFFIX)


def upgrade_result_data(data: dict[str, Any]) -> dict[str, Any]:
    """The saved form of an older schema version as the current one (children included).

    Version 1 had no content items, progress, host requests, result types, messages sent to the
    model or exceptions: they stay empty, since a file of that version never recorded them; its
    tool calls keep their text, error, images and structured result. Versions 1 and 2 never
    recorded compaction calls (their usage entries are turns; their totals may leave compactions
    out), hook decisions (``None``: unknown), a rejection's feedback, the runtime trace or the time
    by phase (both ``None``: unknown).
    """
    data = {**data, "schema_version": SCHEMA_VERSION}
    invocations = data.get("subagent_invocations")
    if isinstance(invocations, list):
        data["subagent_invocations"] = [
            {**item, "result": upgrade_result_data(item["result"])}
            if isinstance(item, dict) and isinstance(item.get("result"), dict)
            else item
            for item in invocations
        ]
    return data


def result_to_dict(result: CopilotResult) -> dict[str, Any]:
    """The JSON-ready dict of a result, with derived totals for readers without Python, redacted."""
    data = result.model_dump(mode="json")
    data["derived"] = {
        "final_response": result.final_response,
        "evidence_complete": result.evidence_complete,
        "permission_requested": result.permission_requested,
        "token_usage": result.token_usage,
        "total_premium_requests": result.total_premium_requests,
        "total_ai_credits": result.total_ai_credits,
    }
    redacted: dict[str, Any] = redact_data(data)
    return redacted


SubagentInvocation.model_rebuild()
CopilotResult.model_rebuild()
