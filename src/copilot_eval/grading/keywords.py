"""Keyword match: the answer mentions any (or all) of a list of terms; reports the terms it found."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from copilot_eval.evalsets import EvalTestCase
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if, ungradable


class KeywordMatch:
    """Pass when any (``mode='any'``) or all (``mode='all'``) keywords occur, ignoring case."""

    needs_reference = False  # it brings its own keywords

    def __init__(
        self, keywords: Sequence[str], *, mode: Literal["any", "all"] = "any", name: str = "Keyword match"
    ) -> None:
        terms = [k.strip() for k in keywords if k.strip()]
        if not terms:
            raise ValueError("keywords: give at least one non-blank keyword")
        if mode not in ("any", "all"):
            raise ValueError(f"keywords: mode must be 'any' or 'all', got {mode!r}")
        self.name, self.keywords, self.mode = name, tuple(terms), mode

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Look for the keywords in the answer (the reference is not needed)."""
        if (error := ungradable(self.name, case, evidence, needs_reference=False)) is not None:
            return error
        answer = (evidence.answer or "").casefold()
        found = [k for k in self.keywords if k.casefold() in answer]
        missing = [k for k in self.keywords if k not in found]
        ok = bool(found) if self.mode == "any" else not missing
        reason = f"{self.mode}: matched {found or 'nothing'}" + (f", missing {missing}" if missing else "")
        return Grade(
            self.name,
            passed_if(ok),
            reason,
            score=100.0 * len(found) / len(self.keywords),
            details={"matched": found, "missing": missing},
        )


__all__ = ["KeywordMatch"]
