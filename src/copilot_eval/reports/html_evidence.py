"""The evidence part of a drill-down, read from the saved evidence JSON as a plain dict.

Any target's evidence is accepted: a CopilotResult (tool calls with their content items and
progress, requests to the user and the client, subagents, usage, premium requests, the node that
played it) or a Copilot Studio target's record (citations, attachments, activities). Every field is optional
and read defensively: what is absent is shown as unknown or left out, never as zero.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.reports.evidence_words import played_on_text
from copilot_eval.reports.html_page import esc, link, table
from copilot_eval.reports.html_tool_content import host_requests_html, tool_calls_html


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def evidence_tokens(data: dict[str, Any] | None) -> int | None:
    """Total tokens of the evidence (input plus output), or None when unknown."""
    usage = _dict(_dict(data).get("derived")).get("token_usage")
    total = _dict(usage).get("total_tokens")
    if isinstance(total, (int, float)):
        return int(total)
    direct = _dict(data).get("total_tokens")  # a target that reports a total of its own
    return int(direct) if isinstance(direct, (int, float)) else None


def _subagents(data: dict[str, Any]) -> str:
    children = [_dict(child) for child in _list(data.get("subagent_invocations"))]
    if not children:
        return ""
    rows = [
        [
            esc(c.get("name")),
            esc(c.get("kind")),
            esc(c.get("status")),
            esc(c.get("duration_ms")),
            esc(c.get("total_tokens")),
            esc(c.get("total_tool_calls")),
            esc(c.get("error") or ""),
        ]
        for c in children
    ]
    return "<h3>Subagents</h3>" + table(
        ["name", "kind", "status", "duration ms", "tokens", "tool calls", "error"], rows
    )


def _customizations(data: dict[str, Any]) -> str:
    files = [_dict(item) for item in _list(data.get("customizations"))]
    if not files:
        return ""
    rows = [
        [
            esc(f.get("status") or "unknown"),
            esc(f.get("kind")),
            esc(f.get("scope")),
            esc(f.get("path")),
            esc(f.get("apply_to") or ""),
            esc(f.get("reason") or ""),
        ]
        for f in files
    ]
    return "<h3>Customization files</h3>" + table(["status", "kind", "scope", "file", "applyTo", "why"], rows)


def _citation_row(citation: Any) -> list[str]:
    if not isinstance(citation, dict):
        return [esc(citation), "", ""]
    title = citation.get("title") or citation.get("name") or citation.get("id")
    url = citation.get("url") or citation.get("uri") or citation.get("link")
    text = citation.get("text") or citation.get("snippet") or citation.get("content") or citation.get("abstract")
    source = link(url, rel="noreferrer") if isinstance(url, str) else ""  # http(s)/mailto only: others are text
    return [esc(title), source, esc(text) if text is not None else ""]


def _citations(data: dict[str, Any]) -> str:
    citations = _list(data.get("citations"))
    if not citations:
        return ""
    return "<h3>Citations</h3>" + table(["title", "source", "text"], [_citation_row(c) for c in citations])


def _usage(data: dict[str, Any]) -> str:
    entries = [_dict(entry) for entry in _list(data.get("usage"))]
    derived = _dict(data.get("derived"))
    totals = _dict(derived.get("token_usage"))
    lines = [
        f"input tokens {esc(totals.get('input_tokens'))}, output tokens {esc(totals.get('output_tokens'))}, "
        f"total {esc(totals.get('total_tokens'))}; premium requests {esc(derived.get('total_premium_requests'))}"
    ]
    if "estimated_cost" in data:
        lines.append(f"estimated cost {esc(data.get('estimated_cost'))}")
    else:
        lines.append("cost: not estimated (no price table; premium requests are the runtime's own measure)")
    html = "<h3>Usage</h3><p>" + "<br>".join(lines) + "</p>"
    if entries:
        rows = [
            [
                esc(e.get("purpose") or "turn"),  # evidence before schema 3 recorded turns only
                esc(e.get("model")),
                esc(e.get("input_tokens")),
                esc(e.get("output_tokens")),
                esc(e.get("premium_requests")),
                esc(e.get("duration_ms")),
            ]
            for e in entries
        ]
        html += table(["call", "model", "input", "output", "premium requests", "duration ms"], rows)
    return html


def _seconds(milliseconds: Any) -> str | None:
    return f"{milliseconds / 1000:.2f} s" if isinstance(milliseconds, (int, float)) else None


def evidence_html(data: dict[str, Any] | None, file: str | None, *, refused: str | None = None) -> str:
    """The evidence section of a drill-down; says so plainly when the evidence file is missing or was refused."""
    where = f"<p>Evidence JSON: {link(file, relative=True)}</p>" if file else ""
    if data is None:
        why = esc(refused) if refused else "Evidence file not found or unreadable"
        return where + f'<p class="muted">{why}: only run.json is shown.</p>'
    success = data.get("success")
    executed = "yes" if success is True else "no (see error)" if success is False else "unknown"
    facts = [
        ("executed to the end", esc(executed)),
        ("stop reason", esc(data.get("stop_reason"))),
        ("model", esc(data.get("model_used"))),
        ("session duration", esc(_seconds(data.get("duration_ms")))),
    ]
    if data.get("error"):
        facts.append(("error", esc(data.get("error"))))
    if (played := played_on_text(data.get("played_on"))) is not None:
        facts.append(("played on", esc(played)))
    overview = table(["fact", "value"], [[esc(name), value] for name, value in facts])
    return (
        where
        + overview
        + _citations(data)
        + tool_calls_html(data)
        + host_requests_html(data)
        + _customizations(data)
        + _subagents(data)
        + _usage(data)
    )


__all__ = ["evidence_html", "evidence_tokens"]
