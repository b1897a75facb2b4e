"""The ``instructions:`` grader option: a case whose named customization files never reached the model is an error.

An instruction-adherence score must not measure a file that was never loaded. The check reads
``result.instructions_delivered`` (the request audit's verdict, docs/customizations.md) for each
named path or glob; a file that was not delivered makes the case ``error`` through its own row of
the one case-status rule (``grading/combine.py``), before any other grader is asked, so a judge's
``fail`` cannot hide it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatchcase

from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.grading.protocol import CaseEvidence, Grade

__all__ = ["InstructionsDelivered"]

AUDIT_OFF = "unknown whether the instructions reached the model: the run's request audit was off (audit_requests: true)"


class InstructionsDelivered:
    """Requires that every named customization file (a path or glob as ``result.customizations`` lists it) reached the model."""

    name = "instructions"

    def __init__(self, patterns: Sequence[str]) -> None:
        cleaned = [pattern.strip() for pattern in patterns if pattern.strip()]
        if not cleaned:
            raise ValueError(
                "name at least one instruction file (a path or glob, as `copilot-eval customizations` lists it)"
            )
        self.patterns = tuple(cleaned)

    def _answers(self, evidence: CaseEvidence) -> dict[str, bool | None]:
        check = getattr(evidence.result, "instructions_delivered", None)
        return {pattern: check(pattern) if callable(check) else None for pattern in self.patterns}

    def undelivered(self, evidence: CaseEvidence) -> str | None:
        """Why the case cannot be graded: the named files that did not reach the model; None when all did or unknown."""
        missing = [pattern for pattern, delivered in self._answers(evidence).items() if delivered is False]
        if not missing:
            return None
        files = getattr(evidence.result, "customizations", None) or []
        details = [
            f"{item.path} ({item.status}{': ' + item.reason if item.reason else ''})"
            for item in files
            if any(fnmatchcase(item.path, pattern) for pattern in missing) and item.status != "delivered"
        ]
        named = "; ".join(details) or ", ".join(f"{pattern} (no such file)" for pattern in missing)
        return f"instructions did not reach the model: {named}"

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Pass when every named file was delivered; error when one was not; unknown without the audit."""
        answers = self._answers(evidence)
        if (why := self.undelivered(evidence)) is not None:
            return Grade(self.name, CaseStatus.ERROR, why)
        if any(delivered is None for delivered in answers.values()):
            return Grade(self.name, CaseStatus.UNKNOWN, AUDIT_OFF)
        return Grade(self.name, CaseStatus.PASS, "delivered: " + ", ".join(self.patterns))
