"""Small builders of session-event dicts (the ``SessionEvent.to_dict()`` shape) for crafted tests."""

from __future__ import annotations

import itertools
from typing import Any

_ids = itertools.count(1)


def event(kind: str, data: dict[str, Any], *, agent_id: str | None = None) -> dict[str, Any]:
    """One event dict with a fresh id."""
    built: dict[str, Any] = {
        "type": kind,
        "data": data,
        "id": f"evt-{next(_ids)}",
        "timestamp": "2026-01-01T00:00:00+00:00",
        "parentId": None,
    }
    if agent_id:
        built["agentId"] = agent_id
    return built


def start(session_id: str = "s-1", model: str = "gpt-4.1") -> dict[str, Any]:
    return event(
        "session.start",
        {"sessionId": session_id, "copilotVersion": "1.0.102", "selectedModel": model, "context": {"cwd": "/work"}},
    )


def user(text: str, **kw: Any) -> dict[str, Any]:
    return event("user.message", {"content": text, "transformedContent": f"<ctx/>\n{text}"}, **kw)


def assistant(text: str, *calls: tuple[str, str, dict[str, Any]], **kw: Any) -> dict[str, Any]:
    requests = [{"toolCallId": cid, "name": name, "arguments": args} for cid, name, args in calls]
    return event("assistant.message", {"content": text, "toolRequests": requests}, **kw)


def tool_start(call_id: str, name: str, args: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    agent_id = extra.pop("agent_id", None)
    return event(
        "tool.execution_start",
        {"toolCallId": call_id, "toolName": name, "arguments": args or {}, **extra},
        agent_id=agent_id,
    )


def tool_done(
    call_id: str,
    text: str | None = "ok",
    *,
    success: bool = True,
    error: str | None = None,
    code: str | None = None,
    result: dict[str, Any] | None = None,
    agent_id: str | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {"toolCallId": call_id, "success": success}
    if result is not None:
        data["result"] = result
    elif text is not None:
        data["result"] = {"content": text, "detailedContent": text}
    if error is not None:
        data["error"] = {"message": error, **({"code": code} if code else {})}
    return event("tool.execution_complete", data, agent_id=agent_id)


def usage(model: str | None = "gpt-4.1", agent_id: str | None = None, **counts: Any) -> dict[str, Any]:
    data = {"inputTokens": 100, "outputTokens": 10, "cacheReadTokens": 0, "cacheWriteTokens": 0, "duration": 5}
    data.update(counts)
    if model is not None:
        data["model"] = model
    return event("assistant.usage", {k: v for k, v in data.items() if v is not None}, agent_id=agent_id)


def idle() -> dict[str, Any]:
    return event("session.idle", {"mode": "interactive"})


def session_error(message: str, status: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"errorType": "query", "message": message}
    if status is not None:
        data["statusCode"] = status
    return event("session.error", data)


def one_call_session(
    *middle: dict[str, Any], call: tuple[str, str, dict[str, Any]] = ("c1", "get_balance", {"account": "A1"})
) -> list[dict[str, Any]]:
    """A root session that requests one call; ``middle`` holds its start/completion events."""
    return [start(), user("balance?"), usage(), assistant("", call), *middle, usage(), assistant("done"), idle()]
