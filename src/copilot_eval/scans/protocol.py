"""What a scanner is: a name and one method over one case's transcript that returns what it noticed.

A scanner never decides a verdict. It reads a ``CaseTranscript`` (``scans.transcript``) and
returns ``Hit``s: where (an ``Event`` of the transcript, or the case as a whole), how bad, why,
and the quoted words. ``scan_case`` turns them into ``Finding``s (``reports.findings``) named for
the scanner and the case. A scanner written by a user is any object with ``name``,
``description`` and ``scan``; ``deterministic`` says whether it may run by default (a judge,
which asks a model, is never in the default set).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from copilot_eval.reports.findings import SEVERITIES, Finding, quoted
from copilot_eval.scans.transcript import CaseTranscript, Event


@dataclass(frozen=True)
class Hit:
    """One thing a scanner noticed: the event it is in (``None``: the case), why, the quote, how bad."""

    reason: str
    quote: str
    event: Event | None = None
    severity: str = "warning"
    opinion: bool = False
    evidence: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def at(cls, event: Event, reason: str, *, start: int = 0, end: int | None = None, **kwargs: Any) -> Hit:
        """A hit in ``event``, quoting its text from ``start`` to ``end`` (widened a little)."""
        return cls(reason, quoted(event.text, start, end), event, **kwargs)


@runtime_checkable
class Scanner(Protocol):
    """A transcript scanner: ``scan`` returns the hits in one case, never raising for odd evidence."""

    name: str
    description: str
    deterministic: bool

    def scan(self, case: CaseTranscript) -> Iterable[Hit]:
        """What this scanner notices in ``case`` (nothing: an empty iterable)."""
        ...


def scan_case(scanner: Scanner, case: CaseTranscript, *, repeat: int | None = None) -> list[Finding]:
    """The findings of one scanner in one case; a scanner that raises gives one ``error`` finding saying so.

    Hits in another turn than the case's are dropped: a conversation's turns are cases of their own.
    """
    try:
        hits = list(scanner.scan(case))
    except Exception as exc:  # a user's scanner: its failure is a note on the case, never the end of the scan
        return [Finding(scanner.name, case.key, "error", f"the scanner failed: {type(exc).__name__}: {exc}", "")]
    findings = []
    for hit in hits:
        turn = hit.event.turn if hit.event is not None else case.turn
        if case.turn is not None and turn is not None and turn != case.turn:
            continue
        findings.append(
            Finding(
                scanner=scanner.name,
                case=case.key,
                severity=hit.severity if hit.severity in SEVERITIES else "warning",
                reason=hit.reason,
                quote=hit.quote,
                turn=turn,
                event=hit.event.label if hit.event is not None else None,
                repeat=repeat,
                status=case.status,
                opinion=hit.opinion,
                evidence=hit.evidence,
            )
        )
    return findings


__all__ = ["Hit", "Scanner", "scan_case"]
