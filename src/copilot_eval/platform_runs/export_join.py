"""Join the Evaluate tab's results export to a run of the evaluation API, or refuse to.

The API names test cases by id only; the export has the text (question, reference, answer) and
lists the cases in the tab's order, without ids. A row belongs to a case when:
1. **explanation**: the row's grader explanations contain every AI reason of that case, and of no
   other case, and no other row does the same (the AI's reasons are long sentences written for
   that one answer, so a match says the export comes from this very run);
2. **position**, for the cases left: only when the explanation matches already showed that row
   ``k`` is case ``k`` (the export has as many rows as the run has cases, and every explained
   pair sits at the same position), and the row's verdicts agree with that case's.
Anything else is refused with the reason: an export of another run would put another run's
answers beside these verdicts. ``mode="position"`` (``--export-match position``) accepts a join by
position alone (same count, verdicts agreeing at every row), and the record says it is unverified.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.evalsets import CaseStatus, ExportedResult, ExportJoinRecord
from copilot_eval.platform_runs.studio import reported_status
from copilot_eval.studio_eval.shapes import METRIC_TYPES, StudioCaseResult

MODES = ("verified", "position")
_ALIASES = {"keywordmatchany": "anykeywordmatch", "keywordmatchall": "allkeywordmatch", "custom": "customlabels"}
_KNOWN_TYPES = {t.casefold() for t in METRIC_TYPES}


class ExportJoinError(ValueError):
    """The export cannot be joined safely to this run; the message says why and what to do."""


@dataclass(frozen=True)
class ExportJoin:
    """The rows joined to the run, by case number (1-based, the run's order), and how they were matched."""

    rows: dict[int, ExportedResult]
    record: ExportJoinRecord
    lines: list[str] = field(default_factory=list)


def _norm(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def _method(name: str | None) -> str | None:
    key = re.sub(r"[^a-z0-9]", "", (name or "").casefold())
    key = _ALIASES.get(key, key)
    return key if key in _KNOWN_TYPES else None


def _case_verdicts(case: StudioCaseResult) -> list[tuple[str | None, CaseStatus | None]]:
    return sorted(((_method(m.type), reported_status(m)) for m in case.metrics), key=str)


def _row_verdicts(row: ExportedResult) -> list[tuple[str | None, CaseStatus | None]]:
    return sorted(((_method(g.method), g.status) for g in row.grades), key=str)


def verdicts_agree(case: StudioCaseResult, row: ExportedResult) -> bool:
    """Whether the row shows the case's metric verdicts (statuses; metric types where both sides name one)."""
    mine, theirs = _case_verdicts(case), _row_verdicts(row)
    if sorted(str(s) for _, s in mine) != sorted(str(s) for _, s in theirs):
        return False
    if all(t for t, _ in mine) and all(t for t, _ in theirs):
        return mine == theirs
    return True


def _explained(cases: Sequence[StudioCaseResult], rows: Sequence[ExportedResult]) -> dict[int, int]:
    """Case index -> row index for the one-to-one matches by AI reason."""
    reasons = [{_norm(m.ai_reason) for m in c.metrics if m.ai_reason and m.ai_reason.strip()} for c in cases]
    texts = [{_norm(g.explanation) for g in r.grades if g.explanation and g.explanation.strip()} for r in rows]
    candidates = {i: [j for j, text in enumerate(texts) if mine and mine <= text] for i, mine in enumerate(reasons)}
    claimed: dict[int, list[int]] = {}
    for i, found in candidates.items():
        for j in found:
            claimed.setdefault(j, []).append(i)
    return {i: found[0] for i, found in candidates.items() if len(found) == 1 and claimed[found[0]] == [i]}


def _refuse(why: str, *, path: Path, mode: str = "verified") -> ExportJoinError:
    unverified = " or pass --export-match position to join by row order unverified" if mode == "verified" else ""
    return ExportJoinError(
        f"--export {path.name}: {why}. The export's rows cannot be matched to this run's test cases safely, "
        "so no text was joined: export the results of this very run from the Evaluate tab and read it again "
        f"with `copilot-eval studio-eval get RUN_ID --export FILE` (no new run is started),{unverified}".rstrip(",")
    )


def _by_position(
    cases: Sequence[StudioCaseResult], rows: Sequence[ExportedResult], pairs: dict[int, int], *, path: Path, mode: str
) -> int:
    """Pair each case no explanation placed with the row at its position (into ``pairs``), and say how many.

    ExportJoinError when the export cannot be read by position: other counts, explained rows out of
    order, nothing explained in ``verified`` mode, or a row whose verdicts are not its case's.
    """
    if len(pairs) >= len(cases):
        return 0
    if len(rows) != len(cases):
        raise _refuse(
            f"{len(pairs)} of {len(cases)} test cases match a row by their AI reasons, and the export has "
            f"{len(rows)} rows for {len(cases)} test cases, so the rest cannot be placed by position",
            path=path,
            mode=mode,
        )
    if not all(i == j for i, j in pairs.items()):
        raise _refuse("the rows matched by their explanations are not in the run's order", path=path, mode=mode)
    if mode == "verified" and not pairs:
        raise _refuse(
            f"none of the {len(cases)} test cases matches a row by its AI reasons (an export of another run, "
            "or cases without reasons), so the row order is not confirmed",
            path=path,
            mode=mode,
        )
    placed = 0
    for i in range(len(cases)):
        if i in pairs:
            continue
        if not verdicts_agree(cases[i], rows[i]):
            raise _refuse(
                f"line {rows[i].line} (row {i + 1}) shows other verdicts than test case {i + 1} "
                f"({cases[i].test_case_id})",
                path=path,
                mode=mode,
            )
        pairs[i] = i
        placed += 1
    return placed


def join_export(
    cases: Sequence[StudioCaseResult], rows: Sequence[ExportedResult], *, path: Path, mode: str = "verified"
) -> ExportJoin:
    """The safe join of ``rows`` to ``cases``, or ExportJoinError saying why there is none."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    if not cases:
        raise _refuse("the run has no test case results to join text to", path=path, mode=mode)
    pairs = _explained(cases, rows)
    for i, j in pairs.items():
        if not verdicts_agree(cases[i], rows[j]):
            raise _refuse(
                f"line {rows[j].line} matches test case {cases[i].test_case_id} by its explanations but shows "
                "other verdicts (an export of another run of the same test set?)",
                path=path,
                mode=mode,
            )
    by_explanation = len(pairs)
    by_position = _by_position(cases, rows, pairs, path=path, mode=mode)
    if by_position == 0:
        matched_by = "explanation"
    elif by_explanation:
        matched_by = "explanation+position"
    else:
        matched_by = "position"
    unused = sorted(set(range(len(rows))) - set(pairs.values()))
    detail = (
        f"{by_explanation} by explanation, {by_position} by position"
        + (" (asked for; not verified by explanations)" if matched_by == "position" else "")
        + (f"; rows not used: lines {', '.join(str(rows[j].line) for j in unused)}" if unused else "")
    )
    record = ExportJoinRecord(
        file=path.name,
        matched_by=matched_by,
        rows=len(rows),
        matched=len(pairs),
        by_explanation=by_explanation,
        by_position=by_position,
        detail=detail,
    )
    line = f"export {path.name}: {len(pairs)} of {len(cases)} test cases joined, matched by {matched_by} ({detail})"
    return ExportJoin(rows={i + 1: rows[j] for i, j in pairs.items()}, record=record, lines=[line])


__all__ = ["MODES", "ExportJoin", "ExportJoinError", "join_export", "verdicts_agree"]
