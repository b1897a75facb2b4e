"""The cross-check: the event stream (capture) against the runtime's own trace, two witnesses of one session.

Every disagreement is a capture error of its own kind that names both sides; what one side does
not know is never a disagreement. Compared, agent by agent (the root, then each subagent against
the ``invoke_agent`` span nested under the ``execute_tool`` span of the call that started it):

- tool calls, matched by call id: one side only (``trace_tool_call_unmatched``), another name or
  other arguments (``trace_tool_call_differs``), success against failure
  (``trace_tool_outcome_differs``);
- model calls, per prompt: how many and with which model (``trace_model_calls_differ``), and the
  token counts of each call where both sides know them (``trace_usage_differs``);
- subagents against nested ``invoke_agent`` spans (``trace_subagents_differ``).

Without content capture the runtime leaves arguments out and names the agent's own tools (Python
and MCP tools) by the SHA-256 of their name; such a name matches the name it hashes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from copilot_eval.capture.events import ROOT, agent_scope, event_data, event_type
from copilot_eval.capture.trace_tree import TraceTree
from copilot_eval.capture.usage import usage_entry
from copilot_eval.evidence import CaptureError, CopilotResult, SubagentInvocation, ToolCall, UsageEntry
from copilot_eval.evidence.capture_error import CaptureErrorKind
from copilot_eval.evidence.runtime_trace import RuntimeTrace, TraceSpan

_USAGE_FIELDS = (
    ("input_tokens", "gen_ai.usage.input_tokens"),
    ("output_tokens", "gen_ai.usage.output_tokens"),
    ("cache_read_tokens", "gen_ai.usage.cache_read.input_tokens"),
)


class _TraceIndex:
    """The trace's spans grouped by the agent that owns them (the nearest ``invoke_agent`` above)."""

    def __init__(self, trace: RuntimeTrace) -> None:
        tree = TraceTree(trace)
        places = tree.places
        # Root invoke_agent spans (one per prompt) are in no tool call; a subagent's is in its task call.
        self.roots = tree.top_level("invoke_agent")
        self.children: dict[str, list[TraceSpan]] = {}  # execute_tool span id -> nested invoke_agent spans
        for span in tree.of("invoke_agent"):
            tool = places[span.span_id].tool
            if tool is not None:
                self.children.setdefault(tool, []).append(span)
        self._tools: dict[str, list[TraceSpan]] = {}  # invoke_agent span id -> its own tool calls
        self._chats: dict[str, list[TraceSpan]] = {}  # invoke_agent span id -> its own model calls
        for span in tree.spans:
            place = places[span.span_id]
            if place.agent is None:
                continue
            if place.operation == "execute_tool":
                self._tools.setdefault(place.agent, []).append(span)
            elif place.operation == "chat":
                self._chats.setdefault(place.agent, []).append(span)

    def tools_of(self, invocations: Iterable[TraceSpan]) -> list[TraceSpan]:
        return [tool for span in invocations for tool in self._tools.get(span.span_id, [])]

    def chats_of(self, invocation: TraceSpan) -> list[TraceSpan]:
        return self._chats.get(invocation.span_id, [])


def _hashed(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _span_words(span: TraceSpan) -> str:
    return f"span {span.name!r} ({span.span_id})"


def _call_words(call: ToolCall) -> str:
    return f"call {call.call_id} {call.name!r}"


def _call_differs(kind: CaptureErrorKind, call: ToolCall, span: TraceSpan, capture: str, trace: str) -> CaptureError:
    """A disagreement about one call both sides hold: each side names it, then says what it saw.

    ``capture`` and ``trace`` follow each side's name of the call as they are (start them with a space).
    """
    return CaptureError(
        kind=kind,
        call_id=call.call_id,
        span_id=span.span_id,
        message=f"capture: {_call_words(call)}{capture}; trace: {_span_words(span)}{trace}",
    )


def _same_name(call_name: str | None, span_name: str | None) -> bool:
    """Whether the trace's tool name stands for the captured one: the same, or its hash.

    An MCP tool is ``server-tool`` in the events and ``server/tool`` in the trace (each part hashed
    without content capture); the server's name may itself hold a ``-``, so every split is tried.
    """
    if call_name is None or span_name is None:
        return True  # unknown on one side
    if span_name in (call_name, _hashed(call_name)):
        return True
    if "/" not in span_name:
        return False
    for at in (i for i, char in enumerate(call_name) if char == "-"):
        server, tool = call_name[:at], call_name[at + 1 :]
        if span_name in (f"{server}/{tool}", f"{_hashed(server)}/{_hashed(tool)}"):
            return True
    return False


def _parsed_arguments(span: TraceSpan) -> Any:
    raw = span.attributes.get("gen_ai.tool.call.arguments")
    if not isinstance(raw, str):
        return None if raw is None else raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _check_tools(
    calls: Sequence[ToolCall], spans: Sequence[TraceSpan], complete: bool, errors: list[CaptureError]
) -> None:
    by_id = {text: span for span in spans if (text := _text(span.attributes.get("gen_ai.tool.call.id")))}
    seen: set[str] = set()
    for call in calls:
        if call.call_id is None:
            continue  # nothing to match it by
        seen.add(call.call_id)
        span = by_id.get(call.call_id)
        if span is None:
            # A call that never finished may not have its span yet, and a cut-off trace may lack it.
            if complete and call.success is not None:
                errors.append(
                    CaptureError(
                        kind="trace_tool_call_unmatched",
                        call_id=call.call_id,
                        message=f"capture: {_call_words(call)}; trace: no execute_tool span with call id {call.call_id}",
                    )
                )
            continue
        _check_one_call(call, span, errors)
    for call_id, span in by_id.items():
        if call_id not in seen:
            errors.append(
                CaptureError(
                    kind="trace_tool_call_unmatched",
                    call_id=call_id,
                    span_id=span.span_id,
                    message=f"trace: execute_tool {_span_words(span)} with call id {call_id}; capture: no tool call with that id",
                )
            )


def _check_one_call(call: ToolCall, span: TraceSpan, errors: list[CaptureError]) -> None:
    span_name = _text(span.attributes.get("gen_ai.tool.name"))
    if not _same_name(call.name, span_name):
        errors.append(_call_differs("trace_tool_call_differs", call, span, "", f" names the tool {span_name!r}"))
    traced = _parsed_arguments(span)
    if traced is not None and call.arguments is not None and traced != call.arguments:
        ours, theirs = json.dumps(call.arguments, sort_keys=True), json.dumps(traced, sort_keys=True)
        errors.append(
            _call_differs("trace_tool_call_differs", call, span, f" with arguments {ours}", f" with arguments {theirs}")
        )
    failed_in_trace = span.status == "error"
    if call.success is not None and call.success == failed_in_trace:
        seen_as = "failed" if failed_in_trace else "succeeded"
        why = f" ({span.status_message})" if span.status_message else ""
        outcome = " succeeded" if call.success else " failed"
        errors.append(_call_differs("trace_tool_outcome_differs", call, span, outcome, f" {seen_as}{why}"))


def root_usage_per_prompt(events: Iterable[dict[str, Any]]) -> list[list[UsageEntry]]:
    """The root agent's model calls grouped by the agent loop they belong to, in order.

    A loop starts at a ``user.message``, or where the runtime starts one of its own: when a
    background subagent finishes, the runtime posts a ``system.notification`` and runs the root
    agent again with no user message, its turns numbered from 0 anew, and the trace gives that loop
    an ``invoke_agent`` span of its own. Grouping by user messages alone put both loops' calls
    under the first prompt and cried wolf on a correct run.
    """
    groups: list[list[UsageEntry]] = []
    turns_in_loop = 0
    for event in events:
        if agent_scope(event) != ROOT:
            continue
        kind = event_type(event)
        data = event_data(event)
        if kind == "user.message":
            groups.append([])
            turns_in_loop = 0
        elif kind == "assistant.turn_start":
            if groups and turns_in_loop and data is not None and str(data.get("turnId")) == "0":
                groups.append([])  # a loop the runtime started itself
            turns_in_loop += 1
        elif kind == "assistant.usage" and groups and data is not None:
            groups[-1].append(usage_entry(data, ROOT))
    return groups


def _span_models(span: TraceSpan) -> set[str]:
    names = (span.attributes.get(key) for key in ("gen_ai.request.model", "gen_ai.response.model"))
    return {name for name in names if isinstance(name, str) and name}


def _check_model_calls(
    label: str,
    entries: Sequence[UsageEntry],
    chats: Sequence[TraceSpan],
    errors: list[CaptureError],
) -> None:
    """One prompt's (or one subagent's) model calls: count, model, and each call's token counts."""
    if len(entries) != len(chats):
        capture_side = ", ".join(e.model or "?" for e in entries) or "none"
        trace_side = ", ".join(s.name for s in chats) or "none"
        errors.append(
            CaptureError(
                kind="trace_model_calls_differ",
                message=f"{label}: capture: {len(entries)} model calls ({capture_side}); trace: {len(chats)} chat spans ({trace_side})",
            )
        )
    by_response = {text: span for span in chats if (text := _text(span.attributes.get("gen_ai.response.id")))}
    pairs: list[tuple[UsageEntry, TraceSpan]] = []
    if entries and all(entry.api_call_id in by_response for entry in entries):
        pairs = [(entry, by_response[entry.api_call_id or ""]) for entry in entries]
    elif len(entries) == len(chats):
        pairs = list(zip(entries, chats, strict=True))
    for entry, span in pairs:
        models = _span_models(span)
        if entry.model and models and entry.model not in models:
            errors.append(
                CaptureError(
                    kind="trace_model_calls_differ",
                    span_id=span.span_id,
                    message=f"{label}: capture: model call {entry.api_call_id or '?'} with model {entry.model!r}; trace: {_span_words(span)} with model {sorted(models)}",
                )
            )
        for name, attribute in _USAGE_FIELDS:
            ours, theirs = getattr(entry, name), _int(span.attributes.get(attribute))
            if ours is not None and theirs is not None and ours != theirs:
                errors.append(
                    CaptureError(
                        kind="trace_usage_differs",
                        span_id=span.span_id,
                        message=f"{label}: capture: model call {entry.api_call_id or '?'} {name}={ours}; trace: {_span_words(span)} {attribute}={theirs}",
                    )
                )


def _subagent_differs(invocation: SubagentInvocation, span: TraceSpan, trace: str) -> CaptureError:
    """A subagent the capture saw that the trace shows otherwise: named by the call that started it."""
    return CaptureError(
        kind="trace_subagents_differ",
        call_id=invocation.parent_call_id,
        span_id=span.span_id,
        message=f"capture: subagent {invocation.name!r} started by call {invocation.parent_call_id}; trace: {trace}",
    )


def _check_subagents(
    result: CopilotResult, tool_spans: Sequence[TraceSpan], index: _TraceIndex, errors: list[CaptureError]
) -> None:
    by_call = {text: span for span in tool_spans if (text := _text(span.attributes.get("gen_ai.tool.call.id")))}
    expected = [i for i in result.subagent_invocations if i.parent_call_id]
    covered: set[str] = set()
    for invocation in expected:
        tool = by_call.get(invocation.parent_call_id or "")
        if tool is None:
            continue  # the call itself is compared with the tool calls
        covered.add(tool.span_id)
        nested = index.children.get(tool.span_id, [])
        if not nested:
            errors.append(_subagent_differs(invocation, tool, f"no invoke_agent span under {_span_words(tool)}"))
            continue
        span_name = _text(nested[0].attributes.get("gen_ai.agent.name"))
        if invocation.name and span_name and invocation.name != span_name:
            errors.append(
                _subagent_differs(invocation, nested[0], f"{_span_words(nested[0])} names the agent {span_name!r}")
            )
        child = invocation.result
        if child is not None:
            child_tools = index.tools_of(nested)
            _check_tools(child.all_tool_calls, child_tools, True, errors)
            chats = [chat for span in nested for chat in index.chats_of(span)]
            turns = [entry for entry in child.usage if entry.purpose == "turn"]  # compactions are not chat spans
            _check_model_calls(f"subagent {invocation.name!r}", turns, chats, errors)
            _check_subagents(child, child_tools, index, errors)
    for tool in tool_spans:
        if tool.span_id in covered or not index.children.get(tool.span_id):
            continue
        nested = index.children[tool.span_id]
        errors.append(
            CaptureError(
                kind="trace_subagents_differ",
                call_id=_text(tool.attributes.get("gen_ai.tool.call.id")),
                span_id=nested[0].span_id,
                message=f"trace: {_span_words(nested[0])} under {_span_words(tool)}; capture: no subagent started by that call",
            )
        )


def check_against_trace(
    result: CopilotResult, trace: RuntimeTrace, events: Iterable[dict[str, Any]]
) -> list[CaptureError]:
    """Every disagreement between the evidence built from ``events`` and the runtime's ``trace``."""
    errors: list[CaptureError] = []
    index = _TraceIndex(trace)
    root_tools = index.tools_of(index.roots)
    _check_tools(result.all_tool_calls, root_tools, trace.complete, errors)
    groups = root_usage_per_prompt(events)
    for number, invocation in enumerate(index.roots, start=1):
        entries = groups[number - 1] if number <= len(groups) else []
        _check_model_calls(f"prompt {number}", entries, index.chats_of(invocation), errors)
    if trace.complete:
        # A prompt the trace has no invoke_agent span for: only a complete trace can say it is missing.
        for number in range(len(index.roots) + 1, len(groups) + 1):
            if groups[number - 1]:
                _check_model_calls(f"prompt {number}", groups[number - 1], [], errors)
    _check_subagents(result, root_tools, index, errors)
    return errors


__all__ = ["check_against_trace", "root_usage_per_prompt"]
