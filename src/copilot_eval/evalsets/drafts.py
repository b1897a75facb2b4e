"""Drafted cases: the provenance sidecar of a generated set, and which cases of a set are still drafts.

``copilot-eval generate`` writes ``FILE`` and ``FILE.provenance.json`` beside it. The sidecar lists
every drafted case (its question, the coverage tuple, the source text it was drafted from, the
generator) with ``"draft": true``. A case stays a draft until a person accepts it: by setting its
``draft`` to ``false`` in the sidecar, by rewriting its question, or by deleting the sidecar. A
case is matched to its entry by its question text, so reordering rows keeps the marks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.bounded_json import load_json_file

__all__ = ["PROVENANCE_FORMAT", "DraftCount", "count_drafts", "provenance_path", "write_provenance"]

PROVENANCE_FORMAT = "copilot-eval-provenance"
PROVENANCE_SUFFIX = ".provenance.json"


def provenance_path(set_path: Path | str) -> Path:
    """``FILE.provenance.json`` beside the set ``FILE``."""
    path = Path(set_path)
    return path.with_name(path.name + PROVENANCE_SUFFIX)


def write_provenance(set_path: Path | str, document: Mapping[str, Any]) -> Path:
    """Write the sidecar of ``set_path`` (sorted keys, so the same draft gives the same bytes)."""
    text = json.dumps({"format": PROVENANCE_FORMAT, **document}, indent=2, ensure_ascii=False, sort_keys=True)
    return write_text_atomically(provenance_path(set_path), text + "\n")


@dataclass(frozen=True)
class DraftCount:
    """How many of a set's questions are drafts, of how many, and the sidecar that says so (``None``: no sidecar)."""

    drafts: int
    cases: int
    sidecar: Path | None

    @property
    def all_drafts(self) -> bool:
        """Whether every case is a draft (and there is at least one)."""
        return self.cases > 0 and self.drafts == self.cases


def _draft_questions(sidecar: Path) -> set[str]:
    try:
        document = load_json_file(sidecar)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{sidecar}: cannot read the provenance sidecar: {exc}") from None
    entries = document.get("cases") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f"{sidecar}: not a provenance sidecar ('cases' must be a list); fix it or delete it")
    return {
        entry["question"]
        for entry in entries
        if isinstance(entry, dict) and entry.get("draft") is not False and isinstance(entry.get("question"), str)
    }


def count_drafts(questions: list[str], set_path: Path | str) -> DraftCount:
    """How many of ``questions`` (the set's, in file order) its sidecar still marks as drafts; ValueError for a bad sidecar."""
    sidecar = provenance_path(set_path)
    if not sidecar.is_file():
        return DraftCount(0, len(questions), None)
    marked = _draft_questions(sidecar)
    return DraftCount(sum(1 for question in questions if question in marked), len(questions), sidecar)
