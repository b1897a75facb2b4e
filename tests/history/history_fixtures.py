"""Run folders made to order for the history tests and benchmark: chosen statuses, times and limitations.

Each folder is what ``copilot-eval run`` writes (run.json through ``write_run_outputs``, the kept
test set, one CopilotResult evidence file per case saved by ``CopilotResult.save``), so ingest
reads it exactly as it reads a real one. Real runs through the runtime are in ``test_cli_history``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalTestCase,
    EvalTestSet,
    GradeRecord,
    LimitationStanding,
)
from copilot_eval.evalsets.run_provenance import RunFingerprints, ShardInfo
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.turn import Turn
from copilot_eval.evidence.usage import UsageEntry
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.shards import conversation_shards

ROOT = Path(__file__).resolve().parents[2]
GOOD_AGENT = ROOT / "examples" / "evaluation" / "agent-good.yaml"
FALLBACK_AGENT = ROOT / "examples" / "evaluation" / "agent-fallback.yaml"
HTTP500_AGENT = ROOT / "examples" / "evaluation" / "agent-http500.yaml"
THREE_CASES = """question,expectedResponse
What are the opening hours of Spoke & Pedal Rentals?,"We are open every day from 8:00 to 19:00, except on 25 December and 1 January, when the shop is closed."
Do I need to leave a deposit?,"Yes. We take a 150 euro deposit on a credit card for each bike, or 300 euros for an e-bike. It is released when the bike comes back undamaged."
Do you rent tandems?,"Yes, tandems cost 40 euros a day."
"""
"""Three cases of examples/evalsets/knowledge.csv's shop: the good agent passes two, fails the third."""

# Five runs of five cases, oldest first; run 3 (index 2) recorded a runtime limitation.
ROWS = [
    ["pass", "pass", "pass", "fail", "pass"],
    ["pass", "fail", "pass", "fail", "pass"],
    ["pass", "pass", "error", "fail", "fail"],
    ["pass", "fail", "fail", "fail", "pass"],
    ["pass", "fail", "fail", "fail", "pass"],
]

START = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
MODEL = "scripted-history-model"


def questions(count: int) -> list[str]:
    """The questions of a test set of ``count`` cases."""
    return [f"Question number {n}: what does the shop sell?" for n in range(1, count + 1)]


def shop_set(count: int, *, name: str = "shop") -> EvalTestSet:
    """A SingleTurn set of ``count`` cases numbered 1..count."""
    cases = [
        EvalTestCase(conversation_number=n, question=q, response="Bikes.")
        for n, q in enumerate(questions(count), start=1)
    ]
    return EvalTestSet(name=name, data_type=EvalDataType.SINGLE_TURN, cases=cases)


def _evidence(path: Path, answer: str | None, tokens: int | None) -> str:
    usage = [] if tokens is None else [UsageEntry(model=MODEL, input_tokens=tokens - 20, output_tokens=20)]
    result = CopilotResult(
        success=answer is not None,
        stop_reason="completed" if answer is not None else "execution_error",
        error=None if answer is not None else "HTTP 500",
        model_used=MODEL,
        session_premium_requests=1.0 if tokens is not None else None,
        turns=[Turn(role="user", content="question"), *([Turn(role="assistant", content=answer)] if answer else [])],
        usage=usage,
    )
    return str(result.save(path))


def _result(number: int, repeat: int, status: str, evidence: str | None) -> EvalCaseResult:
    answer = None if status == "error" else f"answer {number}"
    grades = []
    if status in ("pass", "fail"):
        grades = [
            GradeRecord(
                method="Text similarity",
                status=CaseStatus(status),
                score=0.9 if status == "pass" else 0.2,
                passing_score=0.6,
            )
        ]
    return EvalCaseResult(
        conversation_number=number,
        passed=status == "pass",
        status=CaseStatus(status),
        actual_response=answer,
        failure_reason=None if status == "pass" else f"case {number}: {status}",
        grades=grades,
        evidence_path=evidence,
        duration_ms=1000.0 + number,
        repeat_index=repeat,
    )


def write_run(
    folder: Path,
    statuses: Sequence[str] | Sequence[Sequence[str]],
    *,
    run_at: datetime | None = None,
    set_name: str = "shop",
    agent: str | None = "shop-agent",
    limitation: str | None = None,
    standing: LimitationStanding | None = None,
    tokens: int | None = 500,
    evidence: bool = True,
) -> EvalRun:
    """Write a run folder whose case ``n`` (1-based) has ``statuses[n-1]`` (a list there: one per repeat)."""
    evidence_dir = folder / "evidence"
    evidence_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for number, entry in enumerate(statuses, start=1):
        repeats = [entry] if isinstance(entry, str) else list(entry)
        for repeat, status in enumerate(repeats):
            path = None
            if evidence:
                answer = None if status == "error" else f"answer {number}"
                path = _evidence(evidence_dir / f"case{number}-r{repeat}.json", answer, tokens)
            results.append(_result(number, repeat, status, path))
    count = {status: sum(r.effective_status is status for r in results) for status in CaseStatus}
    graded = count[CaseStatus.PASS] + count[CaseStatus.FAIL]
    run = EvalRun(
        test_set_name=set_name,
        agent_name=agent,
        run_at=run_at or START,
        general_quality_percent=round(100 * count[CaseStatus.PASS] / graded, 2) if graded else 0.0,
        graded_cases=graded,
        passed=count[CaseStatus.PASS],
        failed=count[CaseStatus.FAIL],
        errored=count[CaseStatus.ERROR],
        not_graded=count[CaseStatus.UNKNOWN],
        duration_ms=1234.5,
        results=results,
        runtime_limitation=limitation,
        limitation_standing=standing if limitation else None,
        confidence=Confidence.CONFIRMED,
    )
    write_run_outputs(run, shop_set(len(statuses), name=set_name), folder)
    return run


def write_shards(
    root: Path,
    statuses: Sequence[str] | Sequence[Sequence[str]],
    *,
    count: int = 2,
    run_at: datetime = START,
    played: float = 0.0,
    min_pass_rate: float | None = None,
    agent: str | None = "shop-agent",
    only: Sequence[int] | None = None,
) -> list[Path]:
    """The folders of ``run --shard I/N`` for I in 1..count (or ``only``), each holding its conversations' results.

    ``played`` is added to every case's duration: two runs of the same statuses differ in how long
    each case took, as two real nights do.
    """
    test_set = shop_set(len(statuses))
    owner = conversation_shards(test_set, count)
    prints = RunFingerprints(test_set="sha256:set", agent="sha256:agent", graders="sha256:graders")
    repeats = max(1 if isinstance(entry, str) else len(entry) for entry in statuses)
    folders = []
    for index in only or range(1, count + 1):
        folder = root / f"shard-{index}"
        (folder / "evidence").mkdir(parents=True, exist_ok=True)
        results = []
        for number, entry in enumerate(statuses, start=1):
            if owner[number] != index:
                continue
            for repeat, status in enumerate([entry] if isinstance(entry, str) else list(entry)):
                answer = None if status == "error" else f"answer {number}"
                path = _evidence(folder / "evidence" / f"case{number}-r{repeat}.json", answer, 500)
                result = _result(number, repeat, status, path)
                results.append(result.model_copy(update={"duration_ms": result.duration_ms + played}))
        run = summarise(
            test_set,
            results,
            agent_name=agent,
            started=run_at + timedelta(seconds=index),
            duration_ms=2000.0 + index,
            min_pass_rate=min_pass_rate,
            repeat_dependence="answered by a scripted model" if repeats > 1 else None,
        )
        run = run.model_copy(
            update={"shard": ShardInfo(index=index, count=count), "fingerprints": prints, "repeat": repeats}
        )
        write_run_outputs(run, test_set, folder)
        folders.append(folder)
    return folders


def write_series(
    root: Path, rows: Sequence[Sequence[str]], *, limitation_runs: Sequence[int] = (), **options: object
) -> list[Path]:
    """One run folder per entry of ``rows`` (run i has statuses rows[i]), an hour apart; run i in ``limitation_runs`` records a limitation."""
    folders = []
    for index, statuses in enumerate(rows):
        folder = root / f"run-{index:03d}"
        limitation = "most cases ended in errors" if index in limitation_runs else None
        write_run(folder, statuses, run_at=START + timedelta(hours=index), limitation=limitation, **options)  # type: ignore[arg-type]
        folders.append(folder)
    return folders


__all__ = [
    "FALLBACK_AGENT",
    "GOOD_AGENT",
    "HTTP500_AGENT",
    "MODEL",
    "ROWS",
    "START",
    "THREE_CASES",
    "questions",
    "shop_set",
    "write_run",
    "write_series",
    "write_shards",
]
