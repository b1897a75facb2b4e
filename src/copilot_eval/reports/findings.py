"""A run folder's scan files: ``scans/<scanner>.jsonl``, one finding a line, written beside the run.

A finding is what a transcript scanner noticed in one case: which scanner, which case, where
(the user turn and the event: the answer, a call), how bad, why, and the words it quotes. Findings
sit beside the verdicts and never change them; the report, ``compare`` and the history read them
from here, the one reader, whichever scanner wrote them (``copilot_eval.scans`` writes them).

A line this version cannot read is skipped and counted (``ScanFiles.unreadable``), never a crash:
a scan file is a note beside a run, not part of its contract.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically

SCANS_DIR = "scans"
"""The folder of a run folder that holds one ``<scanner>.jsonl`` per scanner that ran."""

SEVERITIES = ("info", "warning", "error")
"""How much a finding matters, least first; ``error`` reads "the case measured something else"."""

QUOTE_CHARS = 240
"""How much of the text a finding quotes; the evidence file keeps it whole."""

_MAX_LINE = 64_000  # a line longer than this is not a finding this version wrote
_MAX_FILE = 64 * 1024 * 1024  # a scan file larger than this is not read (counted as one unreadable line)
_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")


def valid_scanner_name(name: str) -> bool:
    """Whether ``name`` can name a scanner and its file: lower case letters, digits, ``-`` and ``_``."""
    return bool(_NAME.match(name))


def quoted(text: str, start: int = 0, end: int | None = None) -> str:
    """The part of ``text`` a finding quotes: ``text[start:end]`` widened a little, cut to ``QUOTE_CHARS``."""
    end = len(text) if end is None else end
    start, end = max(0, start - 40), min(len(text), end + 40)
    piece = " ".join(text[start:end].split())
    return piece if len(piece) <= QUOTE_CHARS else piece[: QUOTE_CHARS - 3] + "..."


@dataclass(frozen=True)
class Finding:
    """One thing a scanner noticed in one case; ``opinion`` marks a model's judgement, not a pattern's."""

    # Optional fields alike in shape to SecurityCase's, HookDecision's, McpServerStatus's, TargetTurn's and
    # FoundCustomization's: unrelated facts of other records, kept apart.
    scanner: str
    case: str
    severity: str
    reason: str
    quote: str
    turn: int | None = None
    event: str | None = None
    repeat: int | None = None
    status: str | None = None
    opinion: bool = False
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The finding as one JSON line (keys in camelCase, like run.json)."""
        data = asdict(self)
        data["evidence"] = dict(self.evidence)
        return json.dumps({_camel(k): v for k, v in data.items()}, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Finding:
        """A finding from its JSON form; ValueError for a shape this version did not write."""
        plain = {_snake(k): v for k, v in data.items()}
        for key in ("scanner", "case", "severity", "reason", "quote"):
            if not isinstance(plain.get(key), str):
                raise ValueError(f"'{_camel(key)}' is missing or not text")
        if plain["severity"] not in SEVERITIES:
            raise ValueError(f"severity {plain['severity']!r} is not one of {', '.join(SEVERITIES)}")
        known = {k: v for k, v in plain.items() if k in cls.__dataclass_fields__}
        evidence = known.get("evidence")
        known["evidence"] = evidence if isinstance(evidence, dict) else {}
        return cls(**known)

    @property
    def where(self) -> str:
        """``turn 2, call 3 write_file`` (what is known of it), or ``the case`` when neither is."""
        parts = [f"turn {self.turn}" if self.turn is not None else None, self.event]
        return ", ".join(p for p in parts if p) or "the case"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _snake(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def scan_file(folder: Path, scanner: str) -> Path:
    """The file of one scanner's findings in a run folder."""
    return Path(folder) / SCANS_DIR / f"{scanner}.jsonl"


def write_findings(folder: Path, scanner: str, findings: Iterable[Finding]) -> Path:
    """Write one scanner's findings (an empty file says it ran and found nothing), atomically."""
    if not valid_scanner_name(scanner):
        raise ValueError(f"scanner name {scanner!r}: use lower case letters, digits, '-' and '_'")
    lines = "".join(finding.to_json() + "\n" for finding in findings)
    return write_text_atomically(scan_file(folder, scanner), lines)


@dataclass(frozen=True)
class ScanFiles:
    """What a run folder's scans hold: the scanners that ran, their findings, and lines that could not be read."""

    scanners: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()
    unreadable: int = 0

    def for_case(self, case: str, repeat: int | None = None, *, every_repeat: bool = False) -> list[Finding]:
        """The findings of one case's play ``repeat`` (``None``: a run without repeats), or of all its plays."""
        return [f for f in self.findings if f.case == case and (every_repeat or (f.repeat or 0) == (repeat or 0))]

    def counts(self) -> dict[str, int]:
        """Findings per scanner, every scanner that ran listed (0 when it found nothing)."""
        counted = dict.fromkeys(self.scanners, 0)
        for finding in self.findings:
            counted[finding.scanner] = counted.get(finding.scanner, 0) + 1
        return counted

    def pairs(self) -> set[tuple[str, str]]:
        """``(scanner, case)`` of every finding: what ``compare`` matches two runs by."""
        return {(f.scanner, f.case) for f in self.findings}


def read_findings(folder: Path) -> ScanFiles:
    """Every finding in ``folder/scans/`` (empty when the run was never scanned), bad lines counted, not raised."""
    directory = Path(folder) / SCANS_DIR
    if not directory.is_dir():
        return ScanFiles()
    scanners: list[str] = []
    findings: list[Finding] = []
    unreadable = 0
    for path in sorted(directory.glob("*.jsonl")):
        if not valid_scanner_name(path.stem):
            continue
        scanners.append(path.stem)
        try:
            if path.stat().st_size > _MAX_FILE:
                raise OSError("too large")
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            unreadable += 1
            continue
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                if len(line) > _MAX_LINE:
                    raise ValueError("line too long")
                data = json.loads(line)
                if not isinstance(data, dict):
                    raise ValueError("not an object")
                findings.append(Finding.from_data(data))
            except (ValueError, TypeError):
                unreadable += 1
    return ScanFiles(tuple(scanners), tuple(findings), unreadable)


__all__ = [
    "QUOTE_CHARS",
    "SCANS_DIR",
    "SEVERITIES",
    "Finding",
    "ScanFiles",
    "quoted",
    "read_findings",
    "scan_file",
    "valid_scanner_name",
]
