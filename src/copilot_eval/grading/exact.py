"""Exact match: the answer equals the reference after a configurable normalisation."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from copilot_eval.evalsets import EvalTestCase
from copilot_eval.grading.protocol import CaseEvidence, Grade, passed_if, ungradable

_SPACES = re.compile(r"\s+")
_PUNCTUATION = re.compile(r"[^\w\s]")


@dataclass(frozen=True)
class Normalisation:
    """Which differences exact match forgives; the default forgives case and spacing only."""

    case: bool = True
    whitespace: bool = True
    punctuation: bool = False

    def apply(self, text: str) -> str:
        """Return ``text`` normalised by the chosen rules (Unicode NFC always)."""
        text = unicodedata.normalize("NFC", text)
        if self.case:
            text = text.casefold()
        if self.punctuation:
            text = _PUNCTUATION.sub("", text)
        if self.whitespace:
            text = _SPACES.sub(" ", text).strip()
        return text


class ExactMatch:
    """Pass when the normalised answer equals the normalised reference."""

    needs_reference = True

    def __init__(self, normalisation: Normalisation | None = None, *, name: str = "Exact match") -> None:
        self.name = name
        self.normalisation = normalisation or Normalisation()

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Compare the answer with the reference."""
        if (error := ungradable(self.name, case, evidence)) is not None:
            return error
        same = self.normalisation.apply(evidence.answer or "") == self.normalisation.apply(case.response)
        reason = "answer equals the reference" if same else "answer differs from the reference"
        return Grade(self.name, passed_if(same), reason, score=100.0 if same else 0.0)


__all__ = ["ExactMatch", "Normalisation"]
