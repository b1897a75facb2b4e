"""Tool call records of one agent scope, correlated by call id, with honest unknowns.

Calls are correlated in two passes (requests and starts first, completions second) so that an
out-of-order completion still finds its call. A completion with no call is never turned into a
record: it is reported as a capture error and stays in ``raw_events``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from copilot_eval.capture.events import event_data, event_id, event_type, list_or_empty, text_or_none
from copilot_eval.capture.large_output import large_output_of, preview_problem
from copilot_eval.capture.progress import progress_by_call
from copilot_eval.capture.run_facts import RunFacts
from copilot_eval.capture.tool_output import read_tool_output
from copilot_eval.evidence import CaptureError, ToolCall
from copilot_eval.evidence.capture_error import CaptureErrorKind
from copilot_eval.evidence.tool_call import ToolException

_CANCEL_CODES = {"cancelled", "canceled", "aborted", "abort"}
# The result types a tool result can have (the SDK's ToolResultType); a failed completion carries it as its code.
_RESULT_TYPES = ("success", "failure", "rejected", "denied", "timeout")
_ABANDONED_TEXT = "the handler had not returned when the run ended; it was abandoned and its outcome is unknown"


def _call_error(
    kind: CaptureErrorKind, call_id: str | None, event: dict[str, Any] | None, message: str
) -> CaptureError:
    """A problem with one call, pointing at the event that showed it (``None``: no event did)."""
    return CaptureError(kind=kind, call_id=call_id, event_id=event_id(event) if event else None, message=message)


class _Ledger:
    """First-seen payload per call id and event kind; flags conflicting repeats."""

    def __init__(self, errors: list[CaptureError]) -> None:
        self.errors = errors
        self.first: dict[tuple[str, str], dict[str, Any]] = {}

    def keep(self, kind: str, call_id: str, data: dict[str, Any], event: dict[str, Any]) -> bool:
        """Whether this payload is the first of its kind for the call (repeats are checked)."""
        key = (kind, call_id)
        if key not in self.first:
            self.first[key] = data
            return True
        if self.first[key] != data:
            message = f"a second {kind} event for call {call_id} disagrees with the first; the first is kept"
            self.errors.append(_call_error("conflicting_duplicate", call_id, event, message))
        return False


def _call_id(event: dict[str, Any], data: dict[str, Any] | None, errors: list[CaptureError]) -> str | None:
    call_id = text_or_none(data.get("toolCallId")) if data else None
    if call_id is None:
        kind: CaptureErrorKind = (
            "uncorrelated_event" if event_type(event) == "tool.execution_complete" else "unparsed_event"
        )
        errors.append(_call_error(kind, None, event, f"{event_type(event)} without a readable toolCallId"))
    return call_id


def _arguments(value: Any) -> tuple[dict[str, Any] | None, Any]:
    """The arguments as an object, and the raw value when they could not be read as one.

    Models and runtimes sometimes hand arguments over as a JSON string: that is parsed. Anything
    else that is not an object is kept raw (with a capture error), never silently dropped.
    """
    if value is None or isinstance(value, dict):
        return value, None
    if isinstance(value, str):
        try:
            parsed = json.loads(value) if value.strip() else {}
        except ValueError:
            return None, value
        if isinstance(parsed, dict):
            return parsed, None
    return None, value


def _unreadable_arguments(call: ToolCall, event: dict[str, Any] | None) -> CaptureError:
    message = f"arguments of call {call.call_id} are not a JSON object; kept raw: {str(call.raw_arguments)[:120]!r}"
    return _call_error("unparsed_event", call.call_id, event, message)


def _set_arguments(call: ToolCall, value: Any, event: dict[str, Any], errors: list[CaptureError]) -> None:
    call.arguments, call.raw_arguments = _arguments(value)
    if call.raw_arguments is not None:
        errors.append(_unreadable_arguments(call, event))


def _note_request(
    calls: dict[str, ToolCall], data: dict[str, Any], scope: str, event: dict[str, Any], errors: list[CaptureError]
) -> None:
    for request in list_or_empty(data.get("toolRequests")):
        call_id = text_or_none(request.get("toolCallId")) if isinstance(request, dict) else None
        if call_id is None or call_id in calls:
            continue
        calls[call_id] = call = ToolCall(
            call_id=call_id,
            name=text_or_none(request.get("name")),
            completion_received=False,
            turn_id=text_or_none(data.get("turnId")),
            agent_id=scope or None,
            parent_call_id=text_or_none(data.get("parentToolCallId")),
        )
        _set_arguments(call, request.get("arguments"), event, [])  # the start, when seen, reports it


def _request_argument_problems(calls: dict[str, ToolCall], started: set[str], errors: list[CaptureError]) -> None:
    # A call that never started has only the model's request: its unreadable arguments are news.
    for call in calls.values():
        if call.call_id not in started and call.raw_arguments is not None:
            errors.append(_unreadable_arguments(call, None))


def _apply_start(
    calls: dict[str, ToolCall],
    call_id: str,
    data: dict[str, Any],
    scope: str,
    event: dict[str, Any],
    errors: list[CaptureError],
) -> None:
    # The start is the runtime's own record of what ran, so it wins over the model's request.
    previous = calls.get(call_id)
    calls[call_id] = call = ToolCall(
        call_id=call_id,
        name=text_or_none(data.get("toolName")) or (previous.name if previous else None),
        arguments=previous.arguments if previous else None,
        raw_arguments=previous.raw_arguments if previous else None,
        completion_received=False,
        mcp_server_name=text_or_none(data.get("mcpServerName")),
        turn_id=text_or_none(data.get("turnId")) or (previous.turn_id if previous else None),
        agent_id=scope or None,
        parent_call_id=text_or_none(data.get("parentToolCallId")) or (previous.parent_call_id if previous else None),
    )
    if "arguments" in data:
        _set_arguments(call, data.get("arguments"), event, errors)
    elif call.raw_arguments is not None:
        errors.append(_unreadable_arguments(call, event))


def _error_text(data: dict[str, Any]) -> tuple[str | None, str | None]:
    error = data.get("error")
    if isinstance(error, dict):
        return text_or_none(error.get("message")), text_or_none(error.get("code"))
    return text_or_none(error), None


def _apply_completion(
    call: ToolCall, data: dict[str, Any], event: dict[str, Any], facts: RunFacts | None, errors: list[CaptureError]
) -> None:
    call_id = call.call_id or ""
    call.completion_received = True
    success = data.get("success")
    call.success = success if isinstance(success, bool) else None
    if call.success is None:
        errors.append(
            _call_error("unparsed_event", call_id, event, "tool.execution_complete without a boolean success")
        )
    raw = data.get("result")
    pointer = text_or_none(raw.get("content")) if isinstance(raw, dict) else None
    call.large_output = large_output_of(data, pointer)
    output = read_tool_output(
        raw, mcp_server=call.mcp_server_name, failed=call.success is False, saved_to_file=call.large_output is not None
    )
    call.result, call.detailed_result, call.structured_result = output.text, output.detailed, output.structured
    if call.large_output is not None:
        call.sent_to_model = output.given if output.given != output.text else None
        call.large_output.whole_result_kept = call.sent_to_model is not None
    call.content_items = output.items
    if output.images:
        call.image_content, call.image_media_type = output.images[0].content, output.images[0].media_type
        call.additional_images = output.images[1:]
    errors.extend(_call_error("unparsed_event", call_id, event, problem) for problem in output.unreadable)
    if output.mismatch:
        errors.append(_call_error("result_mismatch", call_id, event, output.mismatch))
    message, code = _error_text(data)
    call.error = message
    call.result_type = "success" if call.success is True else code if code in _RESULT_TYPES else None
    if call.success is False and ((code or "").lower() in _CANCEL_CODES or "cancel" in (message or "").lower()):
        errors.append(_call_error("cancelled", call_id, event, f"tool call {call_id} was cancelled: {message}"))
    turn_id = text_or_none(data.get("turnId"))
    call.turn_id = call.turn_id or turn_id
    _apply_facts(call, facts, errors=errors)


def _exception_record(raised: ToolException | str) -> ToolException:
    if isinstance(raised, ToolException):
        return raised
    kind, _, message = raised.partition(": ")  # "ValueError: message", as older runners kept it
    return ToolException(type=kind, message=message)


def _apply_python_handler(call: ToolCall, facts: RunFacts) -> None:
    """What a Python handler raised or handed the runtime, which the completion event only half shows."""
    call_id = call.call_id or ""
    raised = facts.tool_exceptions.get(call_id)
    if raised is not None:
        # The runtime reported (and the model was told) only a generic failure: the exception is the news.
        call.exception = _exception_record(raised)
        call.error, call.success, call.result_type = str(call.exception), False, "failure"
    handed = facts.tool_results.get(call_id)
    if handed is not None:
        result_type, text_for_model, error = handed
        call.result_type = result_type
        large = call.large_output
        if (
            large is not None
            and result_type == "success"
            and text_for_model
            and not large.whole_result_kept
            and preview_problem(call.result, text_for_model) is None
        ):
            # The runtime saved the handed text to a file: the evidence keeps it whole, the pointer apart.
            call.sent_to_model, call.result = call.result, text_for_model
            large.whole_result_kept = True
        if result_type != "success":
            # The completion of a failed result keeps no text for the model (a rejected or denied
            # one carries it as its error); the handler's own error says what went wrong.
            call.error = error or call.error
            call.sent_to_model = text_for_model if text_for_model != call.result else None


def _apply_facts(call: ToolCall, facts: RunFacts | None, *, errors: list[CaptureError]) -> None:
    if facts is None or call.call_id is None:
        return
    _apply_python_handler(call, facts)
    sent = facts.tool_messages_sent.get(call.call_id)
    if sent is not None and sent != call.result:
        call.sent_to_model = sent
    if call.call_id in facts.abandoned_call_ids:
        # The handler never returned: any completion the runtime reported is the runner's own
        # abandonment notice, not the tool's outcome, which stays unknown.
        call.completion_received = False
        call.success = None
        call.result = call.detailed_result = call.structured_result = None
        call.result_type = call.sent_to_model = None
        call.error = _ABANDONED_TEXT
        message = f"handler of call {call.call_id} never returned and was abandoned"
        errors.append(_call_error("cancelled", call.call_id, None, message))


def tool_calls_of(
    events: Iterable[dict[str, Any]], *, scope: str, facts: RunFacts | None, errors: list[CaptureError]
) -> list[ToolCall]:
    """The tool calls of one agent scope, in first-seen order; problems go to ``errors``."""
    events = list(events)
    calls: dict[str, ToolCall] = {}
    ledger = _Ledger(errors)
    completions: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    started: set[str] = set()
    for event in events:
        kind, data = event_type(event), event_data(event)
        if kind == "assistant.message" and data is not None:
            _note_request(calls, data, scope, event, errors)
        elif kind == "tool.execution_start":
            call_id = _call_id(event, data, errors)
            if call_id is not None and data is not None and ledger.keep("start", call_id, data, event):
                started.add(call_id)
                _apply_start(calls, call_id, data, scope, event, errors)
        elif kind == "tool.execution_complete":
            call_id = _call_id(event, data, errors)
            if call_id is not None and data is not None and ledger.keep("completion", call_id, data, event):
                completions.append((call_id, data, event))
    _request_argument_problems(calls, started, errors)
    for call_id, data, event in completions:
        call = calls.get(call_id)
        if call is None:
            message = f"completion for call {call_id} which was never requested or started"
            errors.append(_call_error("unmatched_completion", call_id, event, message))
            continue
        _apply_completion(call, data, event, facts, errors)
    for call_id, progress in progress_by_call(events).items():
        if call_id in calls:
            calls[call_id].progress = progress
    completed = {call_id for call_id, _, _ in completions}
    for call in calls.values():
        if call.call_id in completed:
            continue  # already judged with its completion (an abandoned call is reset to not completed)
        _apply_facts(call, facts, errors=errors)
        # A call the tool budget refused needs no fact: the runtime completes it with the hook's refusal.
        abandoned = facts is not None and call.call_id in facts.abandoned_call_ids
        if not abandoned:
            message = f"call {call.call_id} ({call.name}) started but no completion was seen"
            errors.append(_call_error("missing_completion", call.call_id, None, message))
    return list(calls.values())
