"""A model request as a FunctionModel's function sees it: chat-style messages and a flat tool list.

Chat completions requests already carry messages; a Responses request's instructions and input
items are turned into the same shape, so one function serves both wire APIs.
"""

from __future__ import annotations

import json
from typing import Any

from copilot_eval.models.wire.prompt import content_text

__all__ = ["request_messages", "request_tools"]


def _arguments(raw: Any) -> Any:
    try:
        return json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return raw


def _chat_messages(messages: list[Any]) -> list[dict[str, Any]]:
    out = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        item: dict[str, Any] = {"role": message.get("role"), "content": content_text(message.get("content"))}
        calls = message.get("tool_calls") or []
        if calls:
            item["tool_calls"] = [
                {
                    "id": c.get("id"),
                    "name": (c.get("function") or {}).get("name"),
                    "arguments": _arguments((c.get("function") or {}).get("arguments")),
                }
                for c in calls
                if isinstance(c, dict)
            ]
        if message.get("tool_call_id"):
            item["tool_call_id"] = message["tool_call_id"]
        out.append(item)
    return out


def _responses_messages(instructions: Any, items: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(instructions, str) and instructions:
        out.append({"role": "system", "content": instructions})
    for item in items:
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if kind == "message":
            out.append({"role": item.get("role"), "content": content_text(item.get("content"))})
        elif kind == "function_call":
            call = {"id": item.get("call_id"), "name": item.get("name"), "arguments": _arguments(item.get("arguments"))}
            if out and out[-1]["role"] == "assistant" and "tool_calls" in out[-1]:
                out[-1]["tool_calls"].append(call)  # parallel calls are one answer
            else:
                out.append({"role": "assistant", "content": "", "tool_calls": [call]})
        elif kind == "function_call_output":
            out.append(
                {"role": "tool", "tool_call_id": item.get("call_id"), "content": content_text(item.get("output"))}
            )
    return out


def request_messages(body: dict[str, Any], items: list[Any], *, wire_api: str) -> list[dict[str, Any]]:
    """The conversation: ``{"role", "content"}`` dicts, with ``tool_calls`` (parsed arguments) and ``tool_call_id``."""
    if wire_api == "completions":
        return _chat_messages(body.get("messages") or [])
    return _responses_messages(body.get("instructions"), items)


def request_tools(tools: Any) -> list[dict[str, Any]]:
    """The function tools offered: ``{"name", "description", "parameters"}`` for each."""
    out = []
    for tool in tools or []:
        if not isinstance(tool, dict) or tool.get("type") != "function":
            continue
        nested = tool.get("function")
        spec = nested if isinstance(nested, dict) else tool
        out.append(
            {"name": spec.get("name"), "description": spec.get("description"), "parameters": spec.get("parameters")}
        )
    return out
