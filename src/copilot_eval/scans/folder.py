"""Scanning a run folder: every case's evidence read once, each scanner's findings written to ``scans/<scanner>.jsonl``.

Works on a folder of every writer (``run``, ``merge``, ``regrade``, ``analyze``, ``studio-eval``,
``attack``), read through ``reports.run_folder`` like every reader: a case whose evidence file is
gone, or that never had one (an Evaluate-tab export), is scanned from its recorded answer alone.
An older run.json layout is read as every reader reads it; a newer one is refused, saying to
upgrade. Scanning never changes ``run.json``: a finding is a note beside a verdict, and only
``--fail-on-finding`` (``scan_verdict``) makes one count for the exit code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.evalsets.run_model import EvalCaseResult
from copilot_eval.evidence.protocol import PlayedEvidence
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.exit_codes import BELOW_GATE, PASSED, Verdict
from copilot_eval.reports.findings import Finding, write_findings
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.run_folder import RunFolder, read_run_folder
from copilot_eval.scans.protocol import Scanner, scan_case
from copilot_eval.scans.transcript import CaseTranscript, transcript_of
from copilot_eval.targets.evidence import TargetResult


@dataclass
class ScanReport:
    """What one scan of a run folder found: per scanner its findings, and what could not be read."""

    folder: Path
    scanners: tuple[str, ...]
    findings: list[Finding] = field(default_factory=list)
    cases: int = 0
    answer_only: int = 0
    not_passed: int = 0
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        """Findings per scanner, every scanner that ran listed."""
        counted = dict.fromkeys(self.scanners, 0)
        for finding in self.findings:
            counted[finding.scanner] += 1
        return counted

    def lines(self) -> list[str]:
        """What the command prints: one line per scanner, and the cases scanned from their answer alone."""
        out = [f"scanned {self.cases} case(s) of {self.folder} in {self.seconds:.2f} s"]
        if self.answer_only:
            out.append(
                f"{self.answer_only} case(s) had no readable evidence file: scanned from the recorded answer alone"
            )
        for name, count in self.counts().items():
            out.append(f"  {name}: {count} finding(s)  -> scans/{name}.jsonl")
        if (grouped := self.failures_by_finding()) is not None:
            out.append(grouped)
        return out

    def failures_by_finding(self) -> str | None:
        """``of 9 cases not passed, 7 have findings: platform_error 5, refusal 2`` (None when every case passed)."""
        if not self.not_passed:
            return None
        failing: dict[str, set[tuple[str, int | None]]] = {}
        for finding in self.findings:
            if finding.status in ("fail", "error", "unknown"):
                failing.setdefault(finding.scanner, set()).add((finding.case, finding.repeat))
        cases = set().union(*failing.values()) if failing else set()
        shown = ", ".join(f"{name} {len(keys)}" for name, keys in sorted(failing.items(), key=lambda i: -len(i[1])))
        return f"of {self.not_passed} case(s) not passed, {len(cases)} have findings" + (f": {shown}" if shown else "")


class _EvidenceCache:
    """Each evidence file loaded once (the cases of one conversation share it); unreadable ones are None."""

    def __init__(self, folder: RunFolder) -> None:
        self.folder = folder
        self.loaded: dict[Path, PlayedEvidence | None] = {}

    def get(self, stored: str | None) -> PlayedEvidence | None:
        path = self.folder.evidence_file(stored)
        if path is None:
            return None
        if path not in self.loaded:
            self.loaded[path] = _load(path)
        return self.loaded[path]


def _load(path: Path) -> PlayedEvidence | None:
    """Either kind of saved evidence, or None when it cannot be read (an older or damaged file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("kind") == "copilot-studio-target":
            return TargetResult.load(path)
        return CopilotResult.load(path)
    except (OSError, ValueError, TypeError):
        return None


def case_transcripts(folder: RunFolder) -> list[tuple[EvalCaseResult, CaseTranscript, bool]]:
    """Every case of the run with its transcript, and whether its evidence was read (False: the answer alone)."""
    cache = _EvidenceCache(folder)
    out = []
    for result in folder.run.results or []:
        evidence = cache.get(result.evidence_path)
        transcript = transcript_of(
            evidence,
            key=result.key,
            turn=result.turn or 1,
            status=result.effective_status.value,
            answer=result.actual_response,
        )
        out.append((result, transcript, evidence is not None))
    return out


def scan_run_folder(folder: Path | str | RunFolder, scanners: Sequence[Scanner]) -> ScanReport:
    """Scan every case of the run in ``folder`` and write one ``scans/<scanner>.jsonl`` per scanner.

    Raises ``EvalSetReadError`` (naming the file and the fix) for a folder that is not a run folder
    or whose layout is newer than this version reads.
    """
    started = time.perf_counter()
    found = read_run_folder(folder)
    report = ScanReport(found.folder, tuple(scanner.name for scanner in scanners))
    per_scanner: dict[str, list[Finding]] = {scanner.name: [] for scanner in scanners}
    for result, transcript, read in case_transcripts(found):
        report.cases += 1
        report.answer_only += 0 if read else 1
        report.not_passed += transcript.status in ("fail", "error", "unknown")
        for scanner in scanners:
            per_scanner[scanner.name] += scan_case(scanner, transcript, repeat=result.repeat_index)
    for name, findings in per_scanner.items():
        write_findings(found.folder, name, findings)
        report.findings += findings
    report.seconds = time.perf_counter() - started
    return report


def run_folders_in(path: Path | str) -> list[Path]:
    """The run folders ``path`` stands for: itself when it holds run.json, else each folder right below it that does.

    A lift's folder holds one run folder per arm, and several ``--agent`` one per surface; ``scan``
    given such a folder scans each. A folder with neither is returned as it is, so that reading it
    says what is missing.
    """
    path = Path(path)
    if (path / LAYOUT.run_json).is_file() or not path.is_dir():
        return [path]
    inner = sorted(child for child in path.iterdir() if child.is_dir() and (child / LAYOUT.run_json).is_file())
    return inner or [path]


def scan_line(report: ScanReport) -> str:
    """The finisher's one line: ``scans: 3 finding(s) (platform_error 2, loop 1) in scans/``."""
    counts = [f"{name} {count}" for name, count in report.counts().items() if count]
    shown = f" ({', '.join(counts)})" if counts else ""
    return f"scans: {len(report.findings)} finding(s){shown} in {report.folder / 'scans'}"


def scan_verdict(report: ScanReport, gates: Collection[str]) -> Verdict:
    """``below a gate`` when a scanner named by ``--fail-on-finding`` found anything; passed otherwise."""
    hit = {name: count for name, count in report.counts().items() if name in gates and count}
    if not hit:
        return PASSED
    found = ", ".join(f"{name} ({count})" for name, count in sorted(hit.items()))
    return Verdict(BELOW_GATE, f"--fail-on-finding: findings of {found}")


__all__ = ["ScanReport", "case_transcripts", "run_folders_in", "scan_line", "scan_run_folder", "scan_verdict"]
