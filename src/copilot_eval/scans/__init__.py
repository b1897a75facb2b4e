"""Transcript scanners: sparse findings over a run's recorded evidence, written beside the verdicts, never changing them.

See docs/scanners.md. A scanner reads one case's transcript (``CaseTranscript``: what the agent
authored apart from what it only read) and returns ``Hit``s; ``scan_run_folder`` runs scanners
over a run folder and writes ``scans/<scanner>.jsonl``.
"""

from copilot_eval.reports.findings import Finding, ScanFiles, read_findings
from copilot_eval.scans.action_scanners import Loop, ObeyedInstruction, ProtectedPaths
from copilot_eval.scans.answer_scanners import ClaimedAction, EmptyAnswer, PlatformErrorAnswer, Refusal
from copilot_eval.scans.choice import BUILTIN_NAMES, BUILTIN_SCANNERS, ScanChoiceError, choose_scanners
from copilot_eval.scans.folder import ScanReport, scan_run_folder, scan_verdict
from copilot_eval.scans.protocol import Hit, Scanner, scan_case
from copilot_eval.scans.transcript import CaseTranscript, Event, transcript_of

__all__ = [
    "BUILTIN_NAMES",
    "BUILTIN_SCANNERS",
    "CaseTranscript",
    "ClaimedAction",
    "EmptyAnswer",
    "Event",
    "Finding",
    "Hit",
    "Loop",
    "ObeyedInstruction",
    "PlatformErrorAnswer",
    "ProtectedPaths",
    "Refusal",
    "ScanChoiceError",
    "ScanFiles",
    "ScanReport",
    "Scanner",
    "choose_scanners",
    "read_findings",
    "scan_case",
    "scan_run_folder",
    "scan_verdict",
    "transcript_of",
]
