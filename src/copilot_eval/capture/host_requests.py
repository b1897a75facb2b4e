"""Requests to the host (questions, elicitations, sampling) from their events and the runner's answers.

Each request is a ``*.requested`` event and, once answered, a ``*.completed`` event with the same
``requestId`` (measured with runtime 1.0.102): ``user_input.*`` for the agent's ``ask_user``
question (the completion carries the answer text), ``elicitation.*`` for an MCP server's form or
URL (the completion carries the action and the form values), ``sampling.*`` for an MCP server's
request for a completion (the request event carries the MCP ``CreateMessage`` parameters; the
completion carries nothing, so the answer comes from the runner's ``HostAnswer``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from copilot_eval.capture.events import agent_scope, dict_or_empty, event_data, event_type, list_or_empty, text_or_none
from copilot_eval.capture.run_facts import HostAnswer
from copilot_eval.evidence import HostRequest

_ACTIONS = ("accept", "decline", "cancel")


def sampling_text(request: dict[str, Any]) -> str | None:
    """The text of the last message of an MCP sampling request (its content may be one item or a list)."""
    messages = list_or_empty(request.get("messages"))
    if not messages or not isinstance(messages[-1], dict):
        return None
    content = messages[-1].get("content")
    parts = content if isinstance(content, list) else [content]
    texts = [str(part["text"]) for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str)]
    return "".join(texts) if texts else None


def _opened(kind: str, data: dict[str, Any], event: dict[str, Any]) -> HostRequest | None:
    common: dict[str, Any] = {
        "request_id": text_or_none(data.get("requestId")),
        "agent_id": agent_scope(event) or None,
        "tool_call_id": text_or_none(data.get("toolCallId")),
        "requested_at": text_or_none(event.get("timestamp")),
        "completed": False,
    }
    if kind == "user_input.requested":
        choices = data.get("choices")
        return HostRequest(
            kind="question",
            asked_by="agent",
            message=text_or_none(data.get("question")),
            choices=[str(c) for c in choices] if isinstance(choices, list) else None,
            allow_freeform=data.get("allowFreeform") if isinstance(data.get("allowFreeform"), bool) else None,
            **common,
        )
    if kind == "elicitation.requested":
        url = text_or_none(data.get("url"))
        mode: Literal["form", "url"] = (
            "url" if data.get("mode") == "url" or (url and data.get("mode") != "form") else "form"
        )
        return HostRequest(
            kind="elicitation",
            asked_by=text_or_none(data.get("elicitationSource")),
            mode=mode,
            message=text_or_none(data.get("message")),
            requested_schema=dict_or_empty(data.get("requestedSchema")) or None,
            url=url,
            **common,
        )
    if kind == "sampling.requested":
        request = dict_or_empty(data.get("request"))
        return HostRequest(
            kind="sampling",
            asked_by=text_or_none(data.get("serverName")),
            message=sampling_text(request),
            sampling_request=request or None,
            **common,
        )
    return None


def _completed(record: HostRequest, data: dict[str, Any], event: dict[str, Any]) -> None:
    record.completed = True
    record.answered_at = text_or_none(event.get("timestamp"))
    if record.kind == "question":
        record.answer = text_or_none(data.get("answer"))
        record.action = "accept" if record.answer is not None else None
    elif record.kind == "elicitation":
        action = data.get("action")
        record.action = action if action in _ACTIONS else None
        content = data.get("content")
        record.answer = dict(content) if isinstance(content, dict) else None


def _apply_answer(record: HostRequest, answer: HostAnswer) -> None:
    record.answered_by, record.problem = answer.answered_by, answer.problem
    # The runner knows a declined question (its text reaches the agent as an answer) and every
    # sampling outcome; for an elicitation the completion event already said it.
    if answer.action in _ACTIONS and (record.kind != "elicitation" or record.action is None):
        record.action = answer.action  # type: ignore[assignment]
    if record.kind == "sampling":
        record.answer, record.response = answer.answer, answer.response


def _match(records: list[HostRequest], answers: Iterable[HostAnswer]) -> None:
    used: set[int] = set()
    for answer in answers:
        for index, record in enumerate(records):
            if index in used or record.kind != answer.kind:
                continue
            same = (
                record.request_id == answer.request_id
                if answer.request_id is not None
                else record.answered_by is None and record.message == answer.message
            )
            if same:
                used.add(index)
                _apply_answer(record, answer)
                break


def host_requests_of(events: Iterable[dict[str, Any]], answers: Iterable[HostAnswer] = ()) -> list[HostRequest]:
    """Every request to the host in the order asked, with its answer and who gave it."""
    records: list[HostRequest] = []
    by_id: dict[str, HostRequest] = {}
    for event in events:
        kind, data = event_type(event), event_data(event)
        if data is None:
            continue
        if kind.endswith(".requested"):
            record = _opened(kind, data, event)
            if record is not None:
                records.append(record)
                if record.request_id is not None:
                    by_id.setdefault(record.request_id, record)
        elif kind in ("user_input.completed", "elicitation.completed", "sampling.completed"):
            found = by_id.get(text_or_none(data.get("requestId")) or "")
            if found is not None:
                _completed(found, data, event)
    _match(records, answers)
    return records


__all__ = ["host_requests_of", "sampling_text"]
