"""run_eval_set: play a test set against an agent, grade it, and record an honest EvalRun.

SingleTurn sets run each case in a fresh session; in a Conversation set, rows sharing a
``conversationNumber`` form one conversation, played in file order in one fresh session, and each
conversation is its own session. Units run ``concurrency`` at a time on one pooled
runtime; each finished unit is checkpointed before it counts, so an interrupted run (Ctrl-C or a
hard kill) resumes without losing or repeating a case. On Ctrl-C the outputs of what finished are
written before the cancellation propagates.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalSetError,
    EvalTestCase,
    EvalTestSet,
    LimitationStanding,
    play_groups,
    turn_numbers,
    validate_eval_test_set,
)
from copilot_eval.evalsets.repeat_stats import repeat_records
from copilot_eval.grading.protocol import Grader, fit_problems, needs_reference
from copilot_eval.grading.similarity import TextSimilarity
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.runs.case_runner import Unit, run_unit
from copilot_eval.runs.checkpoint import Checkpoint
from copilot_eval.runs.independence import repeat_dependence_of
from copilot_eval.runs.limitation import KNOWN_FALLBACK_TEXTS, detect_runtime_limitation
from copilot_eval.runs.progress import RunProgress

DEFAULT_CONCURRENCY = 4


def unit_name(test_set: EvalTestSet, cases: Sequence[EvalTestCase], turns: Sequence[int]) -> str:
    """The repeat-free name of a unit: ``conversation3``, ``case3``, or ``case3.2`` for a repeated number."""
    number = cases[0].conversation_number
    if test_set.data_type is EvalDataType.CONVERSATION:
        return f"conversation{number}"
    return f"case{number}" if turns[0] == 1 else f"case{number}.{turns[0]}"


def plan_units(test_set: EvalTestSet, repeat: int) -> list[Unit]:
    """The sessions a run plays, per repeat: one per case (SingleTurn) or one per conversation, in file order."""
    turn_of = {id(case): turn for case, turn in zip(test_set.cases, turn_numbers(test_set.cases), strict=True)}
    groups = [(group.cases, tuple(turn_of[id(case)] for case in group.cases)) for group in play_groups(test_set)]
    return [
        Unit(f"{unit_name(test_set, cases, turns)}#{index}", cases, index, turns)
        for index in range(repeat)
        for cases, turns in groups
    ]


def check_references(test_set: EvalTestSet, graders: Sequence[Grader]) -> list[str]:
    """Refuse a run when a grader needs reference answers and no case has one, or a grader's file does not fit the set."""
    fit = fit_problems(graders, test_set)
    if any(case.response.strip() for case in test_set.cases):
        return fit  # cases without one get the error "no reference answer for this case", one by one
    numbers = ", ".join(str(n) for n in dict.fromkeys(case.conversation_number for case in test_set.cases))
    return fit + [
        f"grader {getattr(g, 'name', type(g).__name__)!r} needs a reference answer and no case has one "
        f"(conversationNumber {numbers}); fill in the response column or choose graders that need none "
        "(general_quality, labels, capability, keywords)"
        for g in graders
        if needs_reference(g)
    ]


def summarise(
    test_set: EvalTestSet,
    results: list[EvalCaseResult],
    *,
    agent_name: str | None,
    started: datetime | None,
    duration_ms: float | None,
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
    note: str | None = None,
    confidence: Confidence = Confidence.CONFIRMED,
    min_pass_rate: float | None = None,
    repeat_dependence: str | None = None,
) -> EvalRun:
    """Build the EvalRun from case results: counts, score over graded cases, limitation and its standing.

    ``confidence`` is about the record itself: CONFIRMED for a run measured from its own evidence
    (the default), SOURCE-INSPECTED for one read from an export. A suspected limitation does not
    lower it; the limitation has its own standing. A run with repeats (or a ``min_pass_rate``)
    keeps each case over its tries, and whether those tries were independent (``repeat_dependence``
    says why not).
    """
    results = sorted(results, key=lambda r: (r.repeat_index or 0, r.conversation_number, r.turn or 1))
    count = {status: sum(r.effective_status is status for r in results) for status in CaseStatus}
    graded = count[CaseStatus.PASS] + count[CaseStatus.FAIL]
    # The score is over graded cases only. With none graded there is no score: the percent stays 0
    # (the seed's field is a number) and gradedCases=0 says it is none; every view shows "n/a".
    percent = 100.0 * count[CaseStatus.PASS] / graded if graded else 0.0
    limitation = detect_runtime_limitation(results, fallback_texts=fallback_texts)
    notes = [note] if note else []
    ungradable = count[CaseStatus.ERROR] + count[CaseStatus.UNKNOWN]
    if ungradable:
        notes.append(f"{ungradable} of {len(results)} results could not be graded and are not in the score")
    evidence = sorted({r.evidence_path for r in results if r.evidence_path})
    repeated = any(r.repeat_index for r in results)
    if repeated and repeat_dependence:
        notes.append(repeat_dependence)
    return EvalRun(
        test_set_name=test_set.name,
        run_at=started,
        agent_name=agent_name,
        general_quality_percent=round(percent, 2),
        graded_cases=graded,
        passed=count[CaseStatus.PASS],
        failed=count[CaseStatus.FAIL],
        errored=count[CaseStatus.ERROR],
        not_graded=count[CaseStatus.UNKNOWN],
        duration_ms=round(duration_ms, 1) if duration_ms is not None else None,
        results=results,
        runtime_limitation=limitation.describe() if limitation else None,
        limitation_standing=LimitationStanding.SUSPECTED if limitation else None,
        confidence=confidence if results else Confidence.UNCONFIRMED,
        evidence=evidence,
        note="; ".join(notes) or None,
        min_pass_rate=min_pass_rate,
        case_repeats=repeat_records(results, min_pass_rate) if repeated or min_pass_rate is not None else None,
        repeats_independent=(repeat_dependence is None) if repeated else None,
        repeat_dependence=repeat_dependence if repeated else None,
    )


def write_outputs(run: EvalRun, test_set: EvalTestSet, output_dir: Path) -> None:
    """Write ``run.json`` and the Copilot Studio style ``results.csv`` into ``output_dir`` (see reports)."""
    write_run_outputs(run, test_set, output_dir)


def _header(test_set: EvalTestSet, graders: Sequence[Grader], repeat: int) -> dict[str, Any]:
    header = {
        "testSet": test_set.name,
        "dataType": test_set.data_type.value,
        "repeat": repeat,
        "cases": [[c.conversation_number, c.question] for c in test_set.cases],
        "graders": [getattr(g, "name", type(g).__name__) for g in graders],
    }
    if test_set.data_type is EvalDataType.CONVERSATION:
        # Earlier versions played a whole Conversation set as one unit; their checkpoints lack this
        # key, so --resume refuses them instead of silently replaying everything.
        header["units"] = "one session per conversationNumber"
    return header


async def run_eval_set(
    test_set: EvalTestSet,
    agent: Any,
    *,
    graders: Sequence[Grader] | None = None,
    repeat: int = 1,
    concurrency: int = DEFAULT_CONCURRENCY,
    output_dir: str | Path | None = None,
    resume: bool = False,
    pool: Any = None,
    progress: bool = False,
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
    profile: str | None = None,
    validate: bool = True,
    min_pass_rate: float | None = None,
) -> EvalRun:
    """Run ``test_set`` against ``agent`` (a CopilotEval) and return the graded EvalRun.

    ``graders`` default to lexical similarity. The set is checked against rule set ``profile``
    (default copilot-studio) unless ``validate=False`` says the caller already did it
    (``runs.prepare``). ``min_pass_rate`` (0..1) gives each case a verdict over its repeats. With
    ``output_dir`` every unit's evidence, the
    checkpoint, ``run.json`` and ``results.csv`` are written there; ``resume`` continues the run
    recorded in it. Raises EvalSetError for an invalid set, CheckpointError for a foreign checkpoint.
    """
    graders = list(graders) if graders else [TextSimilarity()]
    if validate:
        problems = validate_eval_test_set(test_set, profile) + check_references(test_set, graders)
        if problems:
            raise EvalSetError(None, problems)
    if repeat < 1 or concurrency < 1:
        raise ValueError(f"repeat and concurrency must be at least 1 (got {repeat}, {concurrency})")
    if min_pass_rate is not None and not 0 <= min_pass_rate <= 1:
        raise ValueError(f"min_pass_rate must be a fraction between 0 and 1, got {min_pass_rate}")
    started, clock = datetime.now(UTC), time.monotonic()
    out = Path(output_dir) if output_dir is not None else None
    evidence_dir = out / "evidence" if out is not None else None
    done: dict[str, list[EvalCaseResult]] = {}
    checkpoint = None
    if out is not None:
        evidence_dir.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
        checkpoint, done = Checkpoint.start(out, _header(test_set, graders, repeat), resume=resume)
    units = plan_units(test_set, repeat)
    finished: list[EvalCaseResult] = [r for unit in units for r in done.get(unit.key, [])]
    gate = asyncio.Semaphore(concurrency)
    if pool is None:
        # imported on use: the runtime loads the Copilot SDK (about 0.6 s); a Copilot Studio target never needs it
        from copilot_eval.runtime.process.pool import shared_pool

        pool = shared_pool()

    async def play(unit: Unit, bar: RunProgress) -> None:
        async with gate:
            results = await run_unit(unit, agent, graders, pool=pool, evidence_dir=evidence_dir)
        if checkpoint is not None:
            checkpoint.append(unit.key, results)  # durable before it counts
        finished.extend(results)
        bar.add(results)

    def finish(note: str | None = None) -> EvalRun:
        run = summarise(
            test_set,
            finished,
            agent_name=getattr(agent, "name", None),
            started=started,
            duration_ms=(time.monotonic() - clock) * 1000,
            fallback_texts=fallback_texts,
            note=note,
            min_pass_rate=min_pass_rate,
            repeat_dependence=repeat_dependence_of(agent),
        )
        if out is not None:
            write_outputs(run, test_set, out)
        return run

    todo = [unit for unit in units if unit.key not in done]
    with RunProgress(sum(len(u.cases) for u in units), enabled=progress) as bar:
        bar.add(finished)
        tasks = [asyncio.ensure_future(play(unit, bar)) for unit in todo]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            finish(
                f"interrupted: {len(finished)} of {sum(len(u.cases) for u in units)} results finished; "
                "continue with --resume"
            )
            raise
    return finish()


__all__ = [
    "DEFAULT_CONCURRENCY",
    "check_references",
    "plan_units",
    "run_eval_set",
    "summarise",
    "unit_name",
    "write_outputs",
]
