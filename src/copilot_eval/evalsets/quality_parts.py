"""General quality in its parts, named as Copilot Studio's evaluation API names them.

The platform's ``GeneralQuality`` metric carries ``data`` such as ``{"relevance": "Yes",
"groundedness": "No", "completeness": "Yes", "abstention": "No"}``; our General quality judge
records the same keys (and ``contextCoverage``), so a local run and a platform run can be set side
by side part by part: in compare, in the history, in reports. "Yes" means the part holds, "No" that
it does not and "NA" that it was not judged; for ``abstention`` "Yes" means the agent abstained
(which fails the answer). "NA" is never read as a pass. Pure data: any layer may read it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from copilot_eval.evalsets.run_model import GradeRecord

RELEVANCE, GROUNDEDNESS, COMPLETENESS, CONTEXT_COVERAGE, ABSTENTION = (
    "relevance",
    "groundedness",
    "completeness",
    "contextCoverage",
    "abstention",
)
#: The parts in the order every view shows them.
QUALITY_PARTS: tuple[str, ...] = (RELEVANCE, COMPLETENESS, GROUNDEDNESS, CONTEXT_COVERAGE, ABSTENTION)
YES, NO, NA = "Yes", "No", "NA"
_FOLD = re.compile(r"[\s_\-]+")


def _folded(text: str) -> str:
    return _FOLD.sub("", text).casefold()


_PART_BY_FOLDED = {_folded(part): part for part in QUALITY_PARTS}


def is_general_quality(method: str | None) -> bool:
    """Whether a grade's method is General quality, as we name it ("General quality") or the platform does."""
    return method is not None and _folded(method) == "generalquality"


def _value(raw: Any) -> str | None:
    if isinstance(raw, bool):
        return YES if raw else NO
    if not isinstance(raw, str):
        return None
    folded = raw.strip().casefold()
    return {"yes": YES, "no": NO, "na": NA, "n/a": NA, "true": YES, "false": NO}.get(folded)


def parts_of(data: Mapping[str, Any] | None) -> dict[str, str]:
    """The quality parts in ``data`` (keys matched without regard to case), each "Yes", "No" or "NA"."""
    found: dict[str, str] = {}
    for key, raw in (data or {}).items():
        part = _PART_BY_FOLDED.get(_folded(str(key)))
        value = _value(raw)
        if part is not None and value is not None:
            found[part] = value
    return {part: found[part] for part in QUALITY_PARTS if part in found}


def quality_parts(grade: GradeRecord) -> dict[str, str]:
    """The parts of a General quality grade (ours or the platform's); empty for any other grade."""
    return parts_of(grade.data) if is_general_quality(grade.method) else {}


def general_quality_grade(grades: list[GradeRecord]) -> GradeRecord | None:
    """The General quality grade among a case's grades, or ``None``."""
    return next((grade for grade in grades if is_general_quality(grade.method)), None)


__all__ = [
    "ABSTENTION",
    "COMPLETENESS",
    "CONTEXT_COVERAGE",
    "GROUNDEDNESS",
    "NA",
    "NO",
    "QUALITY_PARTS",
    "RELEVANCE",
    "YES",
    "general_quality_grade",
    "is_general_quality",
    "parts_of",
    "quality_parts",
]
