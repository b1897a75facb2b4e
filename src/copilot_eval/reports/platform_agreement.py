"""Where our General quality agrees with the platform's verdict: a platform run regraded here, case by case.

A run Copilot Studio graded (``studio-eval``, or an Evaluate-tab export read by ``analyze``) and the
same answers regraded here (``copilot-eval regrade --grader general_quality``) set side by side.
Per case, the platform's verdict is its ``GeneralQuality`` metric where it has one, else the
case's status; ours likewise. They agree when both gave the same pass or fail; a case where either
could not grade (error, unknown) is counted apart, never as agreement. Where both carry General
quality's parts, the parts that differ are listed (relevance Yes here, No there).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from copilot_eval.evalsets.confidence import Confidence
from copilot_eval.evalsets.quality_parts import QUALITY_PARTS, general_quality_grade, quality_parts
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult, EvalRun

_GRADED = (CaseStatus.PASS, CaseStatus.FAIL)


def is_platform_run(run: EvalRun) -> bool:
    """A run the platform graded: read from its evaluation API or from an Evaluate-tab export."""
    return run.platform_run is not None or run.confidence is Confidence.SOURCE_INSPECTED


def _verdict(result: EvalCaseResult) -> tuple[CaseStatus, dict[str, str]]:
    grade = general_quality_grade(result.grades)
    if grade is not None:
        return grade.status, quality_parts(grade)
    return result.effective_status, {}


@dataclass(frozen=True)
class CaseAgreement:
    """One case: the platform's verdict and ours, and the General quality parts that differ."""

    conversation_number: int
    turn: int
    platform: CaseStatus
    ours: CaseStatus
    differing_parts: dict[str, tuple[str, str]] = field(default_factory=dict)  # part -> (platform, ours)

    @property
    def comparable(self) -> bool:
        """Both gave a pass or fail verdict."""
        return self.platform in _GRADED and self.ours in _GRADED

    @property
    def agrees(self) -> bool | None:
        """Same verdict; ``None`` when either side could not grade."""
        return self.platform is self.ours if self.comparable else None


@dataclass(frozen=True)
class PlatformAgreement:
    """Every case's agreement and the overall figures."""

    cases: list[CaseAgreement]

    @property
    def compared(self) -> int:
        """Cases where both sides gave pass or fail."""
        return sum(case.comparable for case in self.cases)

    @property
    def agreed(self) -> int:
        """Of those, the cases where the verdicts are the same."""
        return sum(case.agrees is True for case in self.cases)

    def summary(self) -> str:
        """``our General quality agrees with the platform on 5 of 6 graded cases (83%); 1 not comparable``."""
        compared, apart = self.compared, len(self.cases) - self.compared
        share = f" ({100 * self.agreed / compared:.0f}%)" if compared else ""
        line = f"our General quality agrees with the platform's verdict on {self.agreed} of {compared} cases{share}"
        return line + (f"; {apart} not comparable (error or unknown on a side)" if apart else "")


def platform_agreement(platform: EvalRun, ours: EvalRun) -> PlatformAgreement:
    """Match the two runs' cases by number and turn (the regrade keeps them) and set their verdicts side by side."""
    theirs = {(r.conversation_number, r.turn or 1, r.repeat_index or 0): r for r in platform.results or []}
    cases = []
    for result in ours.results or []:
        key = (result.conversation_number, result.turn or 1, result.repeat_index or 0)
        if key not in theirs:
            continue
        (their_status, their_parts), (our_status, our_parts) = _verdict(theirs[key]), _verdict(result)
        differing = {
            part: (their_parts[part], our_parts[part])
            for part in QUALITY_PARTS
            if part in their_parts and part in our_parts and their_parts[part] != our_parts[part]
        }
        cases.append(CaseAgreement(key[0], key[1], their_status, our_status, differing))
    return PlatformAgreement(cases)


def agreement_lines(found: PlatformAgreement) -> list[str]:
    """One line per case that does not agree (or cannot be compared), then the overall line."""
    lines = []
    for case in found.cases:
        if case.agrees is True and not case.differing_parts:
            continue
        turn = f" turn {case.turn}" if case.turn > 1 else ""
        head = "agrees" if case.agrees else "differs" if case.agrees is False else "not comparable"
        parts = ", ".join(f"{part} {a} there, {b} here" for part, (a, b) in case.differing_parts.items())
        lines.append(
            f"case {case.conversation_number}{turn}: {head} (platform {case.platform.value}, ours {case.ours.value})"
            + (f"; {parts}" if parts else "")
        )
    return [*lines, found.summary()]


__all__ = [
    "CaseAgreement",
    "PlatformAgreement",
    "agreement_lines",
    "is_platform_run",
    "platform_agreement",
]
