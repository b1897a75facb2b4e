"""HTML of what tools returned and what was asked of the host, read from the saved evidence as dicts.

Each tool call is a row of the tool-call table; when it returned content items or sent progress,
a full-width row under it lists them in order (a resource link's name, URI and MIME type; an
embedded resource's text, cut with its full length said, or its blob's size and hash; an image's
MIME type and size, drawn inline from the kept bytes; annotations as small tags). The requests to
the user and the client follow as a table, in the order they were asked. A server chose every
string here: all of it is escaped, and an image is only drawn from bytes that decode as base64.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from copilot_eval.reports.evidence_words import (
    annotation_tags,
    clipped,
    item_description,
    item_facts,
    item_kind,
    ordered_requests,
    progress_text,
    request_action,
    request_asked,
    request_kind,
    request_policy,
)
from copilot_eval.reports.html_page import esc, pre, table

TEXT_LIMIT = 2000
"""Characters of an item's text shown in a report; the rest is said by its length, kept in the evidence."""
INLINE_IMAGE_LIMIT = 256 * 1024
"""Bytes of an image drawn inline; a bigger one is named with its size (the evidence keeps it)."""
_DRAWN_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})  # not SVG: it is a document
_OUTCOME = {True: "ok", False: "failed", None: "unknown"}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _image(item: dict[str, Any]) -> str:
    mime, data = item.get("mime_type"), item.get("data")
    if item.get("type") != "image" or mime not in _DRAWN_TYPES or not isinstance(data, str):
        return ""
    try:  # the saved form may use either base64 alphabet; a data: URI needs the standard one
        raw = base64.b64decode(data + "=" * (-len(data) % 4), altchars=b"-_", validate=False)
    except (binascii.Error, ValueError):
        return ""
    if not raw or len(raw) > INLINE_IMAGE_LIMIT:
        return ""
    src = f"data:{mime};base64,{base64.b64encode(raw).decode('ascii')}"
    return f'<br><img class="tool-image" alt="{esc(mime)} returned by the tool" src="{esc(src)}">'


def _text(item: dict[str, Any]) -> str:
    text = item.get("text")
    if not isinstance(text, str):
        return ""
    shown, note = clipped(text, TEXT_LIMIT)
    return pre(shown) + (f'<span class="muted clip-note">{esc(note)}</span>' if note else "")


def content_item_html(item: dict[str, Any]) -> str:
    """One content item as a list entry: its kind, what identifies it, its tags, its text or image."""
    facts = " · ".join(esc(fact) for fact in item_facts(item))
    tags = "".join(f'<span class="tag">{esc(tag)}</span>' for tag in annotation_tags(item))
    description = item_description(item)
    return (
        f'<li class="content-item" data-type="{esc(item.get("type"))}"><b>{esc(item_kind(item))}</b>'
        + (f" {facts}" if facts else "")
        + (f" {tags}" if tags else "")
        + (f'<div class="muted">{esc(description)}</div>' if description else "")
        + _text(item)
        + _image(item)
        + "</li>"
    )


def _call_content(call: dict[str, Any]) -> str:
    items = [_dict(item) for item in _list(call.get("content_items"))]
    progress = progress_text(call.get("progress"))
    if not items and progress is None:
        return ""
    listed = f'<ol class="content-items">{"".join(content_item_html(i) for i in items)}</ol>' if items else ""
    noun = "item" if len(items) == 1 else "items"
    heading = f'<span class="muted">{len(items)} content {noun} returned</span>' if items else ""
    shown_progress = f'<p class="progress">{esc(progress)}</p>' if progress else ""
    return heading + listed + shown_progress


def tool_calls_html(data: dict[str, Any]) -> str:
    """The tool-call table: tool, server, outcome, arguments, result or error, then each call's content."""
    calls = [_dict(call) for call in _list(data.get("all_tool_calls"))]
    if not calls:
        return ""
    head = ["tool", "server", "outcome", "arguments", "result or error"]
    rows = []
    for call in calls:
        output = call.get("error") if call.get("error") is not None else call.get("result")
        cells = [
            esc(call.get("name")),
            esc(call.get("mcp_server_name") or ""),
            esc(_OUTCOME.get(call.get("success"), "unknown")),
            pre(call.get("arguments")),
            pre(output),
        ]
        rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
        if content := _call_content(call):
            rows.append(f'<tr class="call-content"><td colspan="{len(head)}">{content}</td></tr>')
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    return (
        f'<h3>Tool calls</h3><table class="tool-calls"><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _answer(request: dict[str, Any]) -> str:
    action = f'<span class="tag action">{esc(request_action(request))}</span>'
    answer = request.get("answer")
    return action + (pre(answer) if answer is not None else "")


def host_requests_html(data: dict[str, Any]) -> str:
    """The requests to the user and the client: kind, who asked, what, the answer and the policy behind it."""
    requests = ordered_requests(data.get("host_requests"))
    if not requests:
        return ""
    tools = {c.get("call_id"): c.get("name") for c in map(_dict, _list(data.get("all_tool_calls"))) if c.get("call_id")}
    rows = []
    for number, request in enumerate(requests, start=1):
        who = esc(request.get("asked_by"))
        if (call := request.get("tool_call_id")) is not None:
            who += f'<div class="muted">during {esc(tools.get(call, "call"))} ({esc(call)})</div>'
        asked = "".join(f"<div>{esc(line)}</div>" for line in request_asked(request))
        rows.append(
            [
                esc(number),
                esc(request_kind(request)),
                who,
                esc(request.get("requested_at")),
                asked,
                _answer(request),
                esc(request_policy(request)),
            ]
        )
    return '<h3 id="host-requests">Requests to the user and the client</h3>' + table(
        ["#", "kind", "asked by", "asked at", "what was asked", "answer", "answered by"], rows, cls="host-requests"
    )


__all__ = ["INLINE_IMAGE_LIMIT", "TEXT_LIMIT", "content_item_html", "host_requests_html", "tool_calls_html"]
