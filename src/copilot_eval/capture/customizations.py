"""The one place a customization file's status is decided, from what was found and what was sent.

``customization_status`` reads two recorded facts: the file as found on disk (its kind, its
``applyTo``, whether this runtime reads it here, its frontmatter problem) and how the requests
carried it (its text, its name only, or not at all). The requests decide first: a file whose text
was sent is delivered whatever its flaws; the file's own facts only explain why one was not.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from copilot_eval.evidence.audit import RequestAuditRecord
from copilot_eval.evidence.customizations import CustomizationFile, CustomizationStatus, FoundCustomization

__all__ = ["customization_status", "judge_customizations", "seen_in_requests"]

Seen = Literal["text", "listed"] | None
EMPTY_MODE = "client_mode 'empty' switches custom instructions off: the runtime sends none of them"


def seen_in_requests(path: str, records: Iterable[RequestAuditRecord]) -> Seen:
    """How the requests carried one file, the strongest over all of them: its text, its name, neither."""
    best: Seen = None
    for record in records:
        how = (record.customizations or {}).get(path)
        if how == "text":
            return "text"
        if how == "listed":
            best = "listed"
    return best


def _listed_reason(found: FoundCustomization) -> tuple[CustomizationStatus, str]:
    if found.apply_to_matches is False:
        return "not_applicable", (
            f"applyTo {found.apply_to!r} matches no file of the repository or the touched paths "
            "(the runtime listed it anyway)"
        )
    return "listed", (
        f"named in the system prompt for files matching {found.apply_to!r}; its text reaches the model "
        "only if the agent views the file"
    )


def customization_status(
    found: FoundCustomization, seen: Seen, *, audited: bool, client_mode: str | None = None
) -> tuple[CustomizationStatus | None, str | None]:
    """(status, reason) of one file; (None, reason) when unknown because no request was read."""
    if not audited:
        return None, "unknown: the request audit was off or no request was sent"
    if seen == "text":
        note = (
            f"its frontmatter is broken ({found.frontmatter_problem}) but this runtime read it"
            if found.frontmatter_problem
            else None
        )
        return "delivered", note
    if found.kind == "prompt":
        return "not_applicable", found.why_not_read
    if client_mode == "empty":
        return "not_delivered", EMPTY_MODE
    if found.frontmatter_problem is not None:
        listed = " (the runtime listed it under the pattern it read from that line)" if seen == "listed" else ""
        return "malformed", f"{found.frontmatter_problem}{listed}"
    if seen == "listed":
        return _listed_reason(found)
    if not found.read_by_runtime:
        return "not_delivered", found.why_not_read
    return "not_delivered", "the runtime neither sent its text nor named it"


def judge_customizations(
    found: Iterable[FoundCustomization], records: list[RequestAuditRecord] | None, *, client_mode: str | None = None
) -> list[CustomizationFile]:
    """Every found file with its status, judged against the run's request audit records."""
    audited = bool(records)
    judged = []
    for item in found:
        seen = seen_in_requests(item.path, records or [])
        status, reason = customization_status(item, seen, audited=audited, client_mode=client_mode)
        judged.append(
            CustomizationFile(
                kind=item.kind, path=item.path, scope=item.scope, apply_to=item.apply_to, status=status, reason=reason
            )
        )
    return judged
