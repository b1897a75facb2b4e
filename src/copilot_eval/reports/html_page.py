"""The shell of every HTML report: one self-contained page with inline style and script, no network.

A report is opened from disk or from a CI artifact, often offline, so nothing is fetched: no CDN,
no web font, no image file. Drill-downs are native ``<details>`` elements, which work even with
scripting disabled; the little script only adds "open all" and "close all".
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

_STYLE = """
:root { --pass:#1a7f37; --fail:#cf222e; --error:#9a6700; --unknown:#6e7781; --line:#d0d7de; --soft:#f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1f2328; }
header, main { max-width: 1100px; margin: 0 auto; padding: 12px 20px; }
header { border-bottom: 1px solid var(--line); }
h1 { font-size: 22px; margin: 8px 0; } h2 { font-size: 17px; margin: 22px 0 8px; } h3 { font-size: 14px; margin: 12px 0 4px; }
.meta { color: #57606a; } .muted { color: #6e7781; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; background: var(--soft); }
.card b { display: block; font-size: 20px; }
.badge { display: inline-block; padding: 0 7px; border-radius: 10px; color: #fff; font-size: 12px; font-weight: 600; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); }
.badge.error { background: var(--error); } .badge.unknown, .badge.skipped { background: var(--unknown); }
.badge.judge-unstable { background: #8e44ad; }
.banner { border: 2px solid var(--error); background: #fff8c5; border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
.banner ul { margin: 4px 0 0 18px; padding: 0; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); }
details.case { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; }
details.case > summary { cursor: pointer; padding: 6px 10px; list-style: revert; }
details.case[open] > summary { border-bottom: 1px solid var(--line); background: var(--soft); }
details.case .body { padding: 6px 14px 12px; }
pre { white-space: pre-wrap; word-break: break-word; background: var(--soft); padding: 6px 8px; border-radius: 4px; margin: 4px 0; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
svg text { font: 11px system-ui, sans-serif; fill: #1f2328; }
button { font: inherit; margin-right: 6px; }
.tag { display: inline-block; padding: 0 6px; margin: 0 2px; border: 1px solid var(--line); border-radius: 8px; font-size: 12px; background: #fff; }
.tag.action { font-weight: 600; }
tr.call-content > td { background: #fbfcfd; padding-left: 24px; }
ol.content-items { margin: 2px 0; padding-left: 20px; } ol.content-items li { margin: 3px 0; }
ol.content-items pre, table.tool-calls pre { max-height: 18em; overflow: auto; }
img.tool-image { max-width: 320px; max-height: 240px; border: 1px solid var(--line); margin-top: 3px; }
table.host-requests div { white-space: pre-wrap; word-break: break-word; }
.delta-up { color: var(--pass); } .delta-down { color: var(--fail); }
"""

_SCRIPT = """
document.addEventListener("DOMContentLoaded", function () {
  var toggle = function (open) {
    document.querySelectorAll("details.case").forEach(function (d) { d.open = open; });
  };
  var openAll = document.getElementById("open-all"), closeAll = document.getElementById("close-all");
  if (openAll) { openAll.addEventListener("click", function () { toggle(true); }); }
  if (closeAll) { closeAll.addEventListener("click", function () { toggle(false); }); }
});
"""


def esc(value: Any) -> str:
    """HTML-escaped text of ``value``; ``None`` shows as "unknown" (never as an empty or zero value)."""
    return "unknown" if value is None else html.escape(str(value), quote=True)


#: The only schemes a link in an HTML output may have; anything else (``javascript:``, ``data:``,
#: ``file:``, ``vbscript:`` ...) is shown as text, never as a link.
LINK_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_C0_AND_SPACE = "".join(chr(code) for code in range(33))


def safe_href(url: Any, *, relative: bool = False) -> str | None:
    """``url`` escaped for an ``href`` when its scheme is http, https or mailto (or it is relative and
    ``relative`` allows it: a file of the report's own folder, a dashboard route); None otherwise.

    The scheme is read as a browser reads it: tabs and newlines anywhere, and control characters
    and spaces at either end, are ignored first, so ``java<TAB>script:`` is ``javascript:``.
    """
    if not isinstance(url, str):
        return None
    seen = re.sub(r"[\t\n\r]", "", url).strip(_C0_AND_SPACE)
    scheme = _SCHEME.match(seen)
    if scheme is not None:
        return esc(url) if scheme.group(1).lower() in LINK_SCHEMES else None
    if not seen or seen.startswith(("//", "\\")) or "\\" in seen.split("?")[0] or not relative:
        return None  # a scheme-relative link leaves for another host; a backslash is a slash to browsers
    return esc(url)


def link(url: Any, text: Any = None, *, relative: bool = False, rel: str | None = None) -> str:
    """An ``<a>`` to ``url`` (see :func:`safe_href`) showing ``text`` (the URL by default); text only when refused."""
    shown = esc(url if text is None else text)
    href = safe_href(url, relative=relative)
    if href is None:
        return shown
    extra = f' rel="{esc(rel)}"' if rel else ""
    return f'<a href="{href}"{extra}>{shown}</a>'


def badge(status: str | None) -> str:
    """A coloured status badge (pass, fail, error, unknown, skipped)."""
    word = (status or "unknown").lower()
    return f'<span class="badge {esc(word.replace(" ", "-"))}">{esc(word)}</span>'


def pre(value: Any) -> str:
    """A preformatted block: strings as they are, anything else as indented JSON."""
    if value is None:
        return '<span class="muted">unknown</span>'
    text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return f"<pre>{esc(text)}</pre>"


def card(label: str, value: Any) -> str:
    """One summary figure: a big value over a small label."""
    return f'<div class="card"><b>{esc(value)}</b>{esc(label)}</div>'


def table(header: list[str], rows: list[list[str]], *, cls: str = "") -> str:
    """An HTML table; cells are inserted as given (escape them before)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def drill_down(summary: str, body: str, *, anchor: str) -> str:
    """A collapsible section (closed until clicked) with an anchor others can link to."""
    return (
        f'<details class="case" id="{esc(anchor)}"><summary>{summary}</summary><div class="body">{body}</div></details>'
    )


def page(title: str, subtitle: str, body: str) -> str:
    """A complete HTML document with the inline style and script; nothing refers to the network."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # Forbids every fetch: a report that tried to load anything would fail visibly, not silently.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{esc(title)}</title><style>{_STYLE}</style><script>{_SCRIPT}</script></head>"
        f'<body><header><h1>{esc(title)}</h1><div class="meta">{subtitle}</div></header>'
        f"<main>{body}</main></body></html>\n"
    )


__all__ = ["LINK_SCHEMES", "badge", "card", "drill_down", "esc", "link", "page", "pre", "safe_href", "table"]
