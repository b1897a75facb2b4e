"""From raw Bot Framework activities to what a user saw: text, citations, cards, error codes.

Pure functions over the activity JSON both transports deliver. The raw activities stay in the
evidence; everything here can be recomputed from them later.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from copilot_eval.evidence.platform_error import platform_error_code
from copilot_eval.targets.evidence import Attachment, AttachmentKind, Citation, TargetTurn

# `[1]: https://host/doc "Title"` or `[2]: cite:1 "abstract"` on a line of its own.
_REFERENCE = re.compile(r'^[ \t]*\[([^\]\s]+)\]:[ \t]*(\S+)(?:[ \t]+"((?:[^"\\]|\\.)*)")?[ \t]*$', re.MULTILINE)
_CARD_KINDS: dict[str, AttachmentKind] = {
    "application/vnd.microsoft.card.oauth": "signin_card",
    "application/vnd.microsoft.card.signin": "signin_card",
    "application/vnd.microsoft.card.hero": "hero_card",
}


def split_references(text: str) -> tuple[str, list[Citation]]:
    """The text without its reference-link definitions, and those definitions as citations."""
    citations = []
    for match in _REFERENCE.finditer(text):
        href, title = match.group(2), match.group(3)
        url = None if href.startswith("cite:") else href  # cite:N is a placeholder, not a place
        citations.append(Citation(position=match.group(1), url=url, title=title, sources=["markdown"]))
    visible = _REFERENCE.sub("", text)
    return re.sub(r"\n{3,}", "\n\n", visible).strip(), citations


def entity_citations(entities: Sequence[Any] | None) -> list[Citation]:
    """Citations from the schema.org ``Message`` entity's ``Claim`` list (positions kept as strings)."""
    found = []
    for entity in entities or []:
        if not isinstance(entity, dict) or not isinstance(entity.get("citation"), list):
            continue
        for claim in entity["citation"]:
            if not isinstance(claim, dict) or claim.get("position") is None:
                continue
            shown = claim.get("appearance")
            appearance = shown if isinstance(shown, dict) else {}
            url = appearance.get("url") or (claim.get("@id") if str(claim.get("@id", "")).startswith("http") else None)
            found.append(
                Citation(
                    position=str(claim["position"]),
                    url=url,
                    title=appearance.get("name"),
                    abstract=appearance.get("abstract"),
                    sources=["entity"],
                )
            )
    return found


def merge_citations(markdown: Sequence[Citation], entity: Sequence[Citation]) -> list[Citation]:
    """One citation per position; where both forms exist the entity's fields win, gaps filled from markdown."""
    merged: dict[str, Citation] = {c.position: c for c in markdown}
    for claim in entity:
        link = merged.get(claim.position)
        if link is None:
            merged[claim.position] = claim
            continue
        merged[claim.position] = Citation(
            position=claim.position,
            url=claim.url or link.url,
            title=claim.title or link.title,
            abstract=claim.abstract or link.abstract,
            sources=["markdown", "entity"],
        )
    return sorted(
        merged.values(),
        key=lambda c: (not c.position.isdigit(), int(c.position) if c.position.isdigit() else 0, c.position),
    )


def classify_attachment(raw: dict[str, Any]) -> Attachment:
    """An attachment with its kind: Adaptive Card, connector consent card, sign-in card, hero card."""
    content_type = str(raw.get("contentType") or "")
    kind: AttachmentKind = _CARD_KINDS.get(content_type, "other")
    if content_type == "application/vnd.microsoft.card.adaptive":
        # Connector consent cards are Adaptive Cards whose actions offer "Allow".
        flat = json.dumps(raw.get("content"), ensure_ascii=False)
        kind = "consent_card" if '"Allow"' in flat else "adaptive_card"
    return Attachment(content_type=content_type, kind=kind, name=raw.get("name"), content=raw.get("content"))


def no_message_error(turn: TargetTurn, *, timeout_s: float, quiet_s: float | None = None) -> str:
    """Why a turn that got no message has no answer, saying how the turn really ended.

    The agent may have sent other activities (plan events, typing, traces) and then gone quiet, ended
    its stream or the conversation; only a turn that ended by the timeout waited ``timeout_s``.
    """
    others = turn.activities
    kinds = ", ".join(dict.fromkeys(str(a.get("type") or "?") for a in others))
    sent = f"{len(others)} other activit{'y' if len(others) == 1 else 'ies'} ({kinds})" if others else "nothing"
    ended = {
        "quiet": f"then {quiet_s:g} s of quiet" if quiet_s is not None else "then a quiet period",
        "end_of_conversation": "then the end of the conversation",
        "end_event": "then the end of its stream (event: end)",
        "stream_closed": "then the stream closed",
    }.get(str(turn.ended_by))
    if turn.ended_by == "timeout" or ended is None:
        if not others:
            return f"no reply from the agent within {timeout_s:g} s"
        return f"no message from the agent within {timeout_s:g} s (it sent {sent})"
    after = f" after {turn.duration_ms / 1000:.1f} s" if turn.duration_ms is not None else ""
    return f"the agent sent no message: {sent}, {ended}{after}"


def _stream_type(activity: dict[str, Any]) -> str | None:
    data = activity.get("channelData")
    return data.get("streamType") if isinstance(data, dict) else None


def fill_turn(turn: TargetTurn, replies: Sequence[dict[str, Any]], *, typing_observable: bool) -> TargetTurn:
    """Fill ``turn``'s messages, answer, citations, cards and error code from the agent's replies."""
    turn.activities = list(replies)
    markdown: list[Citation] = []
    entity: list[Citation] = []
    texts = []
    for activity in replies:
        kind = activity.get("type")
        if kind == "typing":
            turn.typing_seen = True
            if _stream_type(activity) in ("streaming", "informative"):
                turn.streaming_seen = True
        elif kind in ("event", "endOfConversation"):
            turn.events.append(str(activity.get("name") or kind))
        if kind != "message":
            continue
        if _stream_type(activity) == "final":
            turn.streaming_seen = True
        text = activity.get("text")
        if isinstance(text, str) and text.strip():
            code = platform_error_code(text)
            if code and turn.error_code is None:
                turn.error_code = code
            visible, links = split_references(text)
            markdown.extend(links)
            texts.append(visible)
        entity.extend(entity_citations(activity.get("entities")))
        turn.attachments.extend(
            classify_attachment(a) for a in activity.get("attachments") or [] if isinstance(a, dict)
        )
        actions = (
            (activity.get("suggestedActions") or {}).get("actions")
            if isinstance(activity.get("suggestedActions"), dict)
            else None
        )
        turn.suggested_actions.extend(a for a in actions or [] if isinstance(a, dict))
    if typing_observable:
        turn.typing_seen = bool(turn.typing_seen)
        turn.streaming_seen = bool(turn.streaming_seen)
    turn.messages = texts
    turn.citations = merge_citations(markdown, entity)
    has_message = any(a.get("type") == "message" for a in replies)
    if turn.error_code is not None:
        turn.error = f"the platform answered with error code {turn.error_code}: {' '.join(texts)[:300]}"
    elif has_message:
        turn.answer = "\n\n".join(texts)
    return turn


__all__ = [
    "classify_attachment",
    "entity_citations",
    "fill_turn",
    "merge_citations",
    "no_message_error",
    "split_references",
]
