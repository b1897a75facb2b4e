"""What a person reviews of a run, and in which order: the cases where the judges are least to be trusted first.

The queue is read from the run folder (the contract: question, reference, answer, every grader's
verdict and reason) and the verdicts people already gave (the history). Cases where the graders
disagree with each other come first, then those where an LLM judge disagreed with itself
(``--judge-repeat``), then the rest in case order; cases a person already reviewed are left out
unless asked for. The terminal review and the dashboard show the same queue, item by item.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, GradeRecord
from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.quality_parts import quality_parts
from copilot_eval.history.from_folder import record_from_folder
from copilot_eval.history.human_verdicts import GivenVerdict
from copilot_eval.history.records import SOURCE_INGEST, case_key
from copilot_eval.history.store import HistoryStore
from copilot_eval.reports.run_folder import RunFolder, read_run_folder
from copilot_eval.untrusted.terminal import terminal_text

DISAGREE, UNSTABLE = "the graders disagree", "a judge disagreed with itself"


@dataclass(frozen=True)
class ReviewItem:
    """One case result to review: what was asked, expected and answered, and what each grader said."""

    case_key: str
    repeat_index: int
    conversation_number: int
    turn: int
    question: str | None
    reference: str | None
    answer: str | None
    status: str  # the graders' verdict
    reason: str | None
    grades: list[GradeRecord] = field(default_factory=list)
    first_because: str | None = None  # why it comes early (DISAGREE, UNSTABLE), None otherwise
    given: GivenVerdict | None = None  # a person's verdict already stored


def stored_folder(store: HistoryStore, run_dir: Path | str) -> tuple[RunFolder, int]:
    """The run folder at ``run_dir`` and its run's id in the history, storing the run first when it is new.

    EvalSetReadError names a folder that is not a run; a run recorded before (by ``run``) is found
    by its identity, wherever the folder now lies.
    """
    folder = read_run_folder(run_dir)
    return folder, store.add(record_from_folder(folder, source=SOURCE_INGEST)).run_id


def _why_first(result: EvalCaseResult) -> str | None:
    statuses = {grade.status for grade in result.grades}
    if CaseStatus.PASS in statuses and CaseStatus.FAIL in statuses:
        return DISAGREE
    if result.judge_unstable:
        return UNSTABLE
    return None


def review_queue(
    folder: RunFolder, given: Mapping[tuple[str, int], GivenVerdict], *, include_reviewed: bool = False
) -> list[ReviewItem]:
    """The run's case results to review, least trustworthy verdicts first (module docstring)."""
    cases = case_turns(folder.test_set) if folder.test_set is not None else {}
    items = []
    for result in folder.run.results or []:
        key, repeat = case_key(result.conversation_number, result.turn), result.repeat_index or 0
        if (key, repeat) in given and not include_reviewed:
            continue
        case = cases.get((result.conversation_number, result.turn or 1))
        items.append(
            ReviewItem(
                case_key=key,
                repeat_index=repeat,
                conversation_number=result.conversation_number,
                turn=result.turn or 1,
                question=case.question if case is not None else None,
                reference=(case.response or None) if case is not None else None,
                answer=result.actual_response,
                status=result.effective_status.value,
                reason=result.failure_reason,
                grades=list(result.grades),
                first_because=_why_first(result),
                given=given.get((key, repeat)),
            )
        )
    rank = {DISAGREE: 0, UNSTABLE: 1, None: 2}
    # sorted() is stable: within each rank the run's own case order stays
    return sorted(items, key=lambda item: rank[item.first_because])


def item_text(item: ReviewItem, position: int, total: int) -> str:
    """The item as a person reads it in a terminal."""
    turn = f" turn {item.turn}" if item.turn > 1 else ""
    repeat = f" (repeat {item.repeat_index})" if item.repeat_index else ""
    lines = [f"[{position}/{total}] case {item.conversation_number}{turn}{repeat}: graders say {item.status}"]
    if item.first_because:
        lines[0] += f" ({item.first_because})"
    lines += [
        f"question:  {item.question or '(not in the run folder)'}",
        f"reference: {item.reference or '(none)'}",
        f"answer:    {item.answer if item.answer is not None else '(no answer)'}",
    ]
    for grade in item.grades:
        line = f"  {grade.method}: {grade.status.value}"
        if grade.score is not None:
            line += f" (score {grade.score:g}" + (f", pass at {grade.passing_score:g})" if grade.passing_score else ")")
        line += f": {grade.explanation or grade.error_reason or 'no reason given'}"
        if parts := quality_parts(grade):
            line += " [" + ", ".join(f"{part} {value}" for part, value in parts.items()) + "]"
        lines.append(line)
    if item.given is not None:
        when = item.given.given_at.strftime("%Y-%m-%d %H:%M")
        lines.append(f"  reviewed before: {item.given.verdict} by {item.given.reviewer} ({when}, {item.given.source})")
    # the answer's own lines are kept for the reviewer; its control characters and commands are shown, not obeyed
    return terminal_text("\n".join(lines), one_line=False)


#: What a person may type at the prompt, and what it means.
ANSWERS = {"p": "pass", "pass": "pass", "f": "fail", "fail": "fail", "s": "skip", "skip": "skip", "q": "quit"}
ANSWERS["quit"] = "quit"


def parse_answer(text: str) -> str | None:
    """``pass``, ``fail``, ``skip`` or ``quit`` for what was typed; ``None`` when it is none of them."""
    return ANSWERS.get(text.strip().casefold())


__all__ = [
    "ANSWERS",
    "DISAGREE",
    "UNSTABLE",
    "ReviewItem",
    "item_text",
    "parse_answer",
    "review_queue",
    "stored_folder",
]
