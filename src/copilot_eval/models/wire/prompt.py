"""Reading a model request: the real user prompt, the latest tool result, and the turn position."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RequestView", "content_text", "read_chat_request", "read_responses_request"]

# The runtime prefixes every user prompt with this block; rules match the prompt the user typed.
_DATETIME_PREFIX = re.compile(r"^\s*<current_datetime>.*?</current_datetime>\s*", re.DOTALL)
# User-role messages the runtime adds itself, never a prompt: the skill body after the `skill` tool
# runs, and with a session limit (max_ai_credits) the credits left, appended to every request.
_RUNTIME_USER_TAGS = ("<skill-context", "<session_limits_status")
_RESPONSE_ITEM_TYPES = ("function_call", "reasoning")


@dataclass(frozen=True)
class RequestView:
    """What an in-process model reads from one request (the ScriptedModel's rules, Replay's cassette choice)."""

    prompt: str
    position: int
    """How many model answers the conversation already holds after the prompt (0 = first call)."""
    last_tool_result: str | None
    prompt_number: int
    """How many real user prompts came before this one in the conversation (0 = the first)."""
    conversation: str
    """Stable digest of the conversation up to the prompt: keys fault-attempt counters."""


def read_chat_request(body: dict[str, Any]) -> RequestView:
    """Read a chat-completions request body."""
    messages = body.get("messages") or []
    roles = [(m.get("role"), content_text(m.get("content"))) for m in messages]
    tool_results = [content_text(m.get("content")) for m in messages if m.get("role") == "tool"]
    return _view(roles, tool_results, lambda end: messages[:end], answers_span_items=False)


def read_responses_request(items: Sequence[Any], instructions: Any = None) -> RequestView:
    """Read the full `input` list of a Responses request (already joined with earlier turns)."""
    items = [item for item in items if isinstance(item, dict)]
    roles = [(_item_role(item), content_text(item.get("content"))) for item in items]
    outputs = [content_text(item.get("output")) for item in items if item.get("type") == "function_call_output"]
    # One model answer may be several items in a row (reasoning, a message, parallel function calls).
    return _view(roles, outputs, lambda end: [instructions, *items[:end]], answers_span_items=True)


def _view(
    roles: list[tuple[str | None, str]],
    tool_results: list[str],
    head: Callable[[int], list[Any]],
    *,
    answers_span_items: bool,
) -> RequestView:
    """What a request says, from its (role, text) entries, its tool results and its conversation's first entries."""
    prompt_at, prompt = _find_prompt(roles)
    position, in_answer = 0, False
    for role, _ in roles[prompt_at + 1 :]:
        is_answer = role == "assistant"
        if is_answer and not (answers_span_items and in_answer):
            position += 1
        in_answer = is_answer
    return RequestView(
        prompt=prompt,
        position=position,
        last_tool_result=tool_results[-1] if tool_results else None,
        prompt_number=_count_prompts(roles[:prompt_at]),
        conversation=_digest(head(prompt_at + 1), prompt_at),
    )


def _item_role(item: dict[str, Any]) -> str | None:
    if item.get("type") in _RESPONSE_ITEM_TYPES:
        return "assistant"
    if item.get("type") == "function_call_output":
        return "tool"
    return item.get("role")


def _find_prompt(roles: list[tuple[str | None, str]]) -> tuple[int, str]:
    """Index and cleaned text of the latest real user message (-1, "" when there is none)."""
    for index in range(len(roles) - 1, -1, -1):
        role, text = roles[index]
        if role == "user" and not text.lstrip().startswith(_RUNTIME_USER_TAGS):
            return index, _DATETIME_PREFIX.sub("", text, count=1)
    return -1, ""


def _count_prompts(roles: list[tuple[str | None, str]]) -> int:
    return sum(1 for role, text in roles if role == "user" and not text.lstrip().startswith(_RUNTIME_USER_TAGS))


def content_text(content: Any) -> str:
    """Plain text of a message content: a string, or a list of text parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [content_text(part.get("text", "")) if isinstance(part, dict) else str(part) for part in content]
        return "".join(parts)
    return json.dumps(content, sort_keys=True)


def _digest(head: list[Any], prompt_at: int) -> str:
    data = json.dumps([prompt_at, head], sort_keys=True, default=str).encode()
    return hashlib.sha256(data).hexdigest()[:16]
