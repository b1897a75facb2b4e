"""The words every view uses for what a tool returned and what was asked of the host.

Content items, a tool's progress, requests to the user or the client (questions, elicitation,
sampling) and the node that played a session, each said once here from the saved evidence (plain
dicts, the JSON form): the HTML reports and ``copilot-eval inspect`` print these words. Nothing is
escaped here; each view escapes for its own medium. A server chose every string in these records.
"""

from __future__ import annotations

from typing import Any

_KIND = {
    "text": "text",
    "image": "image",
    "audio": "audio",
    "resource_link": "resource link",
    "resource": "embedded resource",
}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def item_kind(item: dict[str, Any]) -> str:
    """The item's type in words (``resource link``, ``embedded resource``), or the tool's own type name."""
    kind = item.get("type")
    return _KIND.get(kind, str(kind)) if kind is not None else "unknown type"


def byte_count(size: Any) -> str:
    """``1,285 bytes``; ``size unknown`` when not recorded (never 0)."""
    return f"{size:,} bytes" if isinstance(size, int) and not isinstance(size, bool) else "size unknown"


def short_hash(sha256: Any) -> str | None:
    """The first 12 hex digits of a SHA-256, enough to tell two blobs apart on a page."""
    return f"sha256 {sha256[:12]}…" if isinstance(sha256, str) and sha256 else None


def item_facts(item: dict[str, Any]) -> list[str]:
    """What identifies the item, without its text or bytes: name, title, URI, MIME type, size, hash."""
    kind = item.get("type")
    facts: list[str] = []
    if kind == "resource_link":
        facts += [f'"{item["name"]}"'] if item.get("name") else []
        facts += [f'title "{item["title"]}"'] if item.get("title") else []
    if item.get("uri"):
        facts.append(str(item["uri"]))
    if item.get("mime_type"):
        facts.append(str(item["mime_type"]))
    holds_bytes = kind in ("image", "audio") or (kind == "resource" and item.get("text") is None)
    if holds_bytes:
        facts.append(byte_count(item.get("size")))
        facts += [h] if (h := short_hash(item.get("sha256"))) else []
    elif kind == "resource_link" and item.get("size") is not None:
        facts.append(f"{byte_count(item.get('size'))} declared")
    if isinstance(item.get("text"), str) and kind != "text":
        facts.append(f"{len(item['text']):,} characters of text")
    return facts


def item_description(item: dict[str, Any]) -> str | None:
    """A resource link's description, when it has one."""
    value = item.get("description")
    return str(value) if value else None


def annotation_tags(item: dict[str, Any]) -> list[str]:
    """The item's annotations as short tags: ``for user, assistant``, ``priority 0.5``, then any other key."""
    tags = []
    for key, value in _dict(item.get("annotations")).items():
        if key == "audience" and isinstance(value, list):
            tags.append("for " + ", ".join(str(who) for who in value))
        elif key == "priority":
            tags.append(f"priority {value:g}" if isinstance(value, (int, float)) else f"priority {value}")
        else:
            tags.append(f"{key}: {value}")
    return tags


def clipped(text: str, limit: int) -> tuple[str, str | None]:
    """The first ``limit`` characters of ``text`` and, when cut, a note saying how much there is."""
    if len(text) <= limit:
        return text, None
    return text[:limit], f"showing the first {limit:,} of {len(text):,} characters"


def progress_text(progress: Any) -> str | None:
    """``3 notifications, last: 3.0/4.0 (75%)``; ``None`` for a tool that sent no progress."""
    data = _dict(progress)
    if not data:
        return None
    count = data.get("count")
    noun = "notification" if count == 1 else "notifications"
    last = data.get("last_message")
    return f"{count} progress {noun}" + (f", last: {last}" if last else "")


def request_kind(request: dict[str, Any]) -> str:
    """``question``, ``elicitation (form)``, ``elicitation (url)`` or ``sampling``."""
    kind = str(request.get("kind") or "unknown request")
    return f"{kind} ({request['mode']})" if request.get("mode") else kind


def _form_fields(schema: Any) -> str | None:
    properties = _dict(_dict(schema).get("properties"))
    if not properties:
        return None
    required = set(_dict(schema).get("required") or [])
    names = [f"{name}{' (required)' if name in required else ''}" for name in properties]
    return "fields: " + ", ".join(names)


def request_asked(request: dict[str, Any]) -> list[str]:
    """What was asked, line by line: the message, then choices, URL, form fields or sampling settings."""
    lines = [str(request["message"])] if request.get("message") is not None else ["(no message recorded)"]
    choices = request.get("choices")
    if isinstance(choices, list) and choices:
        free = "; free text allowed" if request.get("allow_freeform") else ""
        lines.append("choices: " + ", ".join(str(c) for c in choices) + free)
    if request.get("url"):
        lines.append(f"URL: {request['url']}")
    lines += [fields] if (fields := _form_fields(request.get("requested_schema"))) else []
    sampling = _dict(request.get("sampling_request"))
    if sampling.get("systemPrompt"):
        lines.append(f"system prompt: {sampling['systemPrompt']}")
    if sampling.get("maxTokens") is not None:
        lines.append(f"max tokens: {sampling['maxTokens']}")
    return lines


def request_action(request: dict[str, Any]) -> str:
    """The answer's action (``accept``, ``decline``, ``cancel``), or ``answer not recorded`` (an event log's view)."""
    return str(request.get("action") or "answer not recorded")


def request_policy(request: dict[str, Any]) -> str:
    """Which policy answered and why, with any problem it met and whether the request ever completed."""
    words = str(request.get("answered_by") or "policy not recorded")
    if request.get("problem"):
        words += f"; problem: {request['problem']}"
    if request.get("completed") is False:
        words += "; the runtime never completed the request"
    return words


def ordered_requests(requests: Any) -> list[dict[str, Any]]:
    """The host requests in the order they were asked (by ``requested_at`` when every one has it)."""
    items = [_dict(r) for r in requests] if isinstance(requests, list) else []
    if items and all(isinstance(r.get("requested_at"), str) for r in items):
        return sorted(items, key=lambda r: r["requested_at"])  # ISO timestamps of one clock; stable
    return items


def played_on_text(played_on: Any) -> str | None:
    """``ray node 1a2b3c4d5e6f at 127.0.0.1, host h, worker pid 4242``; ``None`` for a local session."""
    data = _dict(played_on)
    if not data:
        return None
    node = data.get("node_id")
    words = f"{data.get('executor') or 'unknown executor'} node {node[:12] if isinstance(node, str) else 'unknown'}"
    extra = [f"at {data['node_address']}"] if data.get("node_address") else []
    extra += [f"host {data['hostname']}"] if data.get("hostname") else []
    extra += [f"worker pid {data['worker_pid']}"] if data.get("worker_pid") is not None else []
    return words + (" " + ", ".join(extra) if extra else "")


__all__ = [
    "annotation_tags",
    "byte_count",
    "clipped",
    "item_description",
    "item_facts",
    "item_kind",
    "ordered_requests",
    "played_on_text",
    "progress_text",
    "request_action",
    "request_asked",
    "request_kind",
    "request_policy",
    "short_hash",
]
