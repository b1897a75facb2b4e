"""Chat completions on the wire: a `chat.completion` body or a stream of `chat.completion.chunk`s."""

from __future__ import annotations

import json
from typing import Any

from .answer import Answer

__all__ = ["chat_body", "chat_stream"]

# What a broken upstream looks like: the runtime must fail to parse this line or body.
MALFORMED_LINE = "data: {this is not json\n\n"
MALFORMED_BODY = b"<html>scripted malformed body: not JSON</html>"


def _usage(answer: Answer) -> dict[str, Any] | None:
    if answer.usage is None:
        return None
    u = answer.usage
    out: dict[str, Any] = {
        "prompt_tokens": u["input_tokens"],
        "completion_tokens": u["output_tokens"],
        "total_tokens": u["input_tokens"] + u["output_tokens"],
    }
    if "cache_read_tokens" in u:
        out["prompt_tokens_details"] = {"cached_tokens": u["cache_read_tokens"]}
    if "reasoning_tokens" in u:
        out["completion_tokens_details"] = {"reasoning_tokens": u["reasoning_tokens"]}
    return out


def _finish_reason(answer: Answer) -> str:
    return "tool_calls" if answer.tool_calls else "stop"


def chat_body(answer: Answer, *, model: str, response_id: str) -> bytes:
    """A non-streamed `chat.completion` JSON body (or a non-JSON body for a malformed turn)."""
    if answer.malformed:
        return MALFORMED_BODY
    message: dict[str, Any] = {"role": "assistant", "content": answer.text}
    if answer.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in answer.tool_calls
        ]
    body: dict[str, Any] = {
        "id": response_id,
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish_reason(answer)}],
    }
    usage = _usage(answer)
    if usage is not None:
        body["usage"] = usage
    text = json.dumps(body)
    if answer.cut_off:
        return text[: len(text) // 2].encode()
    return text.encode()


def chat_stream(answer: Answer, *, model: str, response_id: str) -> bytes:
    """A streamed answer as SSE: content, tool calls, finish, usage, `[DONE]`; faults stop early."""

    def chunk(delta: dict[str, Any] | None, finish: str | None = None, usage: Any = None) -> str:
        data: dict[str, Any] = {
            "id": response_id,
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        if usage is not None:
            data["usage"] = usage
        return f"data: {json.dumps(data)}\n\n"

    parts = [chunk({"role": "assistant", "content": ""})]
    if answer.text:
        parts.append(chunk({"content": answer.text}))
    for i, call in enumerate(answer.tool_calls):
        parts.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": i,
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments},
                        }
                    ]
                }
            )
        )
    if answer.malformed:
        return "".join([*parts, MALFORMED_LINE]).encode()
    if answer.cut_off:
        return "".join(parts).encode()
    parts.append(chunk({}, _finish_reason(answer)))
    usage = _usage(answer)
    if usage is not None:
        parts.append(chunk(None, usage=usage))
    parts.append("data: [DONE]\n\n")
    return "".join(parts).encode()
